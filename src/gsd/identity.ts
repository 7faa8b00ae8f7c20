import { fail, ok, stopped, type Result } from '../failure.ts';
import { realPath } from '../fs/entry.ts';
import { readSmallFile } from '../fs/read.ts';
import { endingText } from '../run/runner.ts';
import { tailOf } from '../text/tail.ts';
import type { GsdAsk, GsdRequest } from './ask.ts';
import { GSD_PACKAGE, packageVersion, type Gsd } from './installation.ts';
import { isJsonObject, parseJson } from '../json/parse.ts';
import { describe } from '../text/format.ts';

// Which GSD a found gsd-tools is, by its own answer to `runtime-identity
// --raw` (`{"packageName":"@opengsd/gsd-core","version":"1.14.0"}`), the
// verb GSD's skills ask before they trust it; and whether gsd-check is tested
// with that version: its built-in gates are GSD 1.14's registry, and compat/
// holds its behaviour to the pinned 1.14.0.

// The GSD line gsd-check is tested with (compat/package.json pins its .0).
export const TESTED_LINE = '1.14';
// The GSD whose registry and gates gsd-check carries (src/gates/gsd-1.14/):
// what --builtin runs and what validate checks a manifest against.
export const BUILT_IN_VERSION = '1.14.0';

interface GsdIdentity {
  readonly version: string;
}

export function parseIdentity(stdout: string, what: string): Result<GsdIdentity> {
  const parsed = parseJson(stdout, `${what}'s runtime-identity answer`);
  if (!parsed.ok) return fail('query-failed', `${what} did not say which GSD it is: ${parsed.failure.message}`);
  const answer = parsed.value;
  if (!isJsonObject(answer) || answer.packageName !== GSD_PACKAGE) {
    return fail(
      'query-failed',
      `${what} did not prove it is ${GSD_PACKAGE}: runtime-identity answered ${isJsonObject(answer) ? `packageName ${describe(answer.packageName)}` : describe(answer)}`,
    );
  }
  if (typeof answer.version !== 'string')
    return fail('query-failed', `${what} did not say which version of ${GSD_PACKAGE} it is: runtime-identity answered version ${describe(answer.version)}`);
  return ok({ version: answer.version });
}

export const isTested = (version: string): boolean => version.startsWith(`${TESTED_LINE}.`) && /^\d+\.\d+\.\d+(?:[-+].*)?$/.test(version);

const IDENTITY_TIMEOUT_MS = 30_000;
export const IDENTITY: GsdRequest = { args: ['runtime-identity', '--raw'], env: {}, timeoutMs: IDENTITY_TIMEOUT_MS, keepStdout: 64 * 1024 };

// What the GSD says it is, asked as GSD's skills ask it.
export async function identify(gsd: Gsd, ask: GsdAsk): Promise<Result<string>> {
  const [result] = await ask([IDENTITY]);
  if (result!.status === 'not-started') return fail('spawn-failed', `${gsd.path} could not start`);
  if (result!.status === 'stopped') return stopped(result!.stop);
  if (result!.timedOut || result!.exitCode !== 0) {
    const tail = tailOf(result!.output.text).text;
    return fail('query-failed', `${endingText('runtime-identity', result!, IDENTITY_TIMEOUT_MS / 1000, 'sentence')}${tail === '' ? '' : `: ${tail}`}`);
  }
  const identity = parseIdentity(result!.stdout?.text ?? '', gsd.path);
  return identity.ok ? ok(identity.value.version) : identity;
}

// What the GSD's package says it is, read from the file beside it (through
// links, as npm's bin links lead): no code of it runs.
export const versionOnDisk = (gsd: Gsd): string | undefined => packageVersion(realPath(gsd.path) ?? gsd.path, readSmallFile);
