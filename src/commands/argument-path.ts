import { isAbsolute, resolve } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';

// The one rule for every file named on the command line (--predicate-file,
// --capability, --config, --hooks, --report junit=, validate's files):
// relative to --cwd when given, else to the current directory, as `git -C`
// and `make -C` do. "-" is standard input. Only a relative path needs the
// current directory, which may have been deleted under us, so the rule is
// applied when a command runs, not when its line is parsed.
export function argumentPath(file: string, cwdFlag: string | undefined, current: () => string): Result<string> {
  if (file === '-' || isAbsolute(file)) return ok(file);
  const base = cwdFlag ?? '.';
  if (isAbsolute(base)) return ok(resolve(base, file));
  try {
    return ok(resolve(current(), base, file));
  } catch {
    return fail('bad-cwd', `the current directory no longer exists; give ${file} as an absolute path`);
  }
}
