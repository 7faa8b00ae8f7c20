import type { Envelope } from '../envelope.ts';
import { fail, ok, type Result } from '../failure.ts';
import { visible } from '../text/visible.ts';
import { pickValue, type PickPath } from './pick-path.ts';

interface OutputOptions {
  readonly raw: boolean;
  readonly pick?: PickPath | undefined;
}

export function renderEnvelope(envelope: Envelope, options: OutputOptions): Result<string> {
  if (options.pick === undefined) {
    return ok(`${options.raw ? JSON.stringify(envelope) : JSON.stringify(envelope, null, 2)}\n`);
  }
  const picked = pickValue(envelope, options.pick);
  if (picked === undefined) return fail('no-such-field', `--pick ${options.pick.text}: the envelope has no such field`);
  // A picked value is one line, read by scripts line by line: a newline in a
  // message (a command's tail, a query's report) is shown escaped, as on stderr.
  return ok(`${typeof picked.value === 'string' ? visible(picked.value) : JSON.stringify(picked.value)}\n`);
}
