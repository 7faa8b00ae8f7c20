import { ok, usage, type Result } from '../failure.ts';
import type { Flags } from './flags.ts';
import { stdinOnce } from './option-values.ts';

// validate's options: the capability files, and how to print what it finds.

export interface ValidateOptions {
  readonly files: readonly string[];
  readonly json: boolean;
  readonly jsonErrors: boolean;
}

export function validateOptions(flags: Flags, operands: readonly string[], jsonErrors: boolean): Result<ValidateOptions> {
  if (operands.length === 0) return usage('validate needs at least one capability file');
  const once = stdinOnce('validate', operands);
  if (!once.ok) return once;
  return ok({ files: operands, json: flags.booleans.has('json'), jsonErrors });
}
