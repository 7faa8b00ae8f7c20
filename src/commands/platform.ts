import { fail, ok, type Result } from '../failure.ts';

// Commands are run as `sh -c` in a process group of their own, which is how
// timeouts and stop signals reach every process a gate starts. Windows has
// neither: rather than run gates it cannot bound, gsd-check refuses there.
// `validate` runs nothing, so it runs anywhere.
export function commandSupported(platform: string, command: string): Result<void> {
  if (platform === 'win32' && command !== 'validate') {
    return fail(
      'unsupported-platform',
      'gates cannot be run on Windows: there is no sh and no process groups to bound them; run gsd-check under WSL, or on Linux or macOS',
    );
  }
  return ok(undefined);
}
