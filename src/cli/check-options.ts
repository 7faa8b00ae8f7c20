import { ok, usage, type Result } from '../failure.ts';
import { valueOf, type Flags } from './flags.ts';
import type { EvalOptions } from './eval-options.ts';
import { optional } from './option-values.ts';

// check predicate's options: the predicate from exactly one place.

export interface CheckOptions extends EvalOptions {
  readonly predicate?: string;
  readonly predicateFile?: string;
}

export function checkOptions(flags: Flags, shared: EvalOptions): Result<CheckOptions> {
  const predicate = valueOf(flags, 'predicate');
  const predicateFile = valueOf(flags, 'predicate-file');
  if (predicate !== undefined && predicateFile !== undefined) {
    return usage('--predicate and --predicate-file cannot be used together');
  }
  if (predicate === undefined && predicateFile === undefined) return usage('--predicate or --predicate-file is required');
  if (predicateFile === '') return usage('--predicate-file needs a path (or - for standard input)');
  return ok({ ...optional('predicate', predicate), ...optional('predicateFile', predicateFile), ...shared });
}
