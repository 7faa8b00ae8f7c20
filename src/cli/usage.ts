import { fail, type Failure } from '../failure.ts';

// A command line gsd-check cannot act on: the message, and where to look.
export function usage(message: string): { ok: false; failure: Failure } {
  return fail('usage', `${message} (see gsd-check --help)`);
}
