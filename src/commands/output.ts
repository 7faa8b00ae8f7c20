import type { Envelope } from '../envelope.ts';
import { fail, ok, type Result } from '../failure.ts';

interface OutputOptions {
  readonly raw: boolean;
  readonly pick?: readonly string[] | undefined;
}

export function renderEnvelope(envelope: Envelope, options: OutputOptions): Result<string> {
  if (options.pick === undefined) {
    return ok(`${options.raw ? JSON.stringify(envelope) : JSON.stringify(envelope, null, 2)}\n`);
  }
  let value: unknown = envelope;
  for (const key of options.pick) {
    // Own fields only: "--pick details.constructor" must not reach a prototype.
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) {
      return fail('no-such-field', `--pick ${options.pick.join('.')}: the envelope has no such field`);
    }
    value = (value as Record<string, unknown>)[key];
  }
  return ok(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
}
