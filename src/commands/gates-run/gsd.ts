import { fail, ok, stopped, type Result } from '../../failure.ts';
import type { GatesOptions } from '../../cli/gates-options.ts';
import { BUILT_IN_VERSION, isTested, packageVersion, parseIdentity, TESTED_LINE } from '../../gsd/identity.ts';
import { realPath } from '../../fs/entry.ts';
import { readSmallFile } from '../../fs/read.ts';
import { gsdCommand, locateGsd, runtimeRoot, type Gsd } from '../../gsd/installation.ts';
import type { GateContext } from '../../predicate/kind.ts';
import type { GsdDetails as GsdReport } from '../../gates/provenance.ts';
import { endingText } from '../../run/runner.ts';
import { tailOf } from '../../text/tail.ts';

// Which GSD decides a run: the one `gsd_run` would find, for --render (it
// renders the hooks), --builtin (its registry is the one that counts, and
// gsd-check's is 1.14's) and the query gates when no query command is
// given; and which version it says it is.

interface Decider {
  readonly gsd: Gsd | undefined;
  readonly report: GsdReport | undefined;
  readonly warnings: readonly string[];
}


const GIT_TIMEOUT_MS = 10_000;
const IDENTITY_TIMEOUT_MS = 30_000;

// The GSD gsd_run would find from the project root, where GSD's workflows run it.
export async function findGsd(context: GateContext): Promise<Gsd | undefined> {
  const git = await context.run({
    command: 'git rev-parse --show-toplevel',
    cwd: context.projectRoot,
    env: context.env,
    timeoutMs: GIT_TIMEOUT_MS,
    killAfterMs: context.killAfterMs,
    signal: context.signal,
    force: context.force,
    keepStdout: 64 * 1024,
  });
  const top = git.status === 'ended' && git.exitCode === 0 && git.stdout?.complete === true ? git.stdout.text.trim() : '';
  return locateGsd(runtimeRoot(context.env, top === '' ? undefined : top, context.projectRoot), context.env);
}

// For --render and --builtin: the GSD found, and what it says it is. A
// version gsd-check is not tested with is a warning, or with
// --require-tested-gsd a failure; --render without any GSD fails.
export async function decider(options: GatesOptions, context: GateContext): Promise<Result<Decider>> {
  if (!options.render && !options.builtin) return ok({ gsd: undefined, report: undefined, warnings: [] });
  const gsd = await findGsd(context);
  if (gsd === undefined) {
    if (options.render) return fail('spawn-failed', "--render: no GSD found where gsd_run looks (the top level's gsd-core/, .claude/ or .codex/, gsd_run or gsd-tools on PATH, the agents' homes); install GSD, or give --hooks");
    return ok({ gsd, report: { found: null, version: null, tested: false, registry: BUILT_IN_VERSION }, warnings: [] });
  }
  const identified = await identify(gsd, context);
  if (!identified.ok && identified.failure.reason === 'stopped') return identified;
  // What runtime-identity said; else, for a GSD older than the verb, what its package says.
  const version = identified.ok ? identified.value : packageVersion(realPath(gsd.path) ?? gsd.path, readSmallFile);
  const report: GsdReport = { found: gsd.path, version: version ?? null, tested: identified.ok && isTested(identified.value), ...(options.builtin ? { registry: BUILT_IN_VERSION } : {}) };
  if (report.tested) return ok({ gsd, report, warnings: [] });
  const said = identified.ok
    ? `is GSD ${identified.value}`
    : `did not say which GSD it is (${identified.failure.message})${version === undefined ? '' : `; its package says ${version}`}`;
  const problem = options.render
    ? `the GSD that renders the hooks, ${gsd.path} (${gsd.found}), ${said}; gsd-check is tested with GSD ${TESTED_LINE}.x`
    : `--builtin runs GSD ${BUILT_IN_VERSION}'s built-in gates, but the GSD gsd_run finds, ${gsd.path} (${gsd.found}), ${said}: its own gates may differ; --render evaluates what it loads`;
  if (options.requireTestedGsd) return fail('untested-gsd', problem);
  return ok({ gsd, report, warnings: [problem] });
}

async function identify(gsd: Gsd, context: GateContext): Promise<Result<string>> {
  const result = await context.run({
    command: gsdCommand(gsd, 'runtime-identity --raw'),
    cwd: context.projectRoot,
    env: context.env,
    timeoutMs: IDENTITY_TIMEOUT_MS,
    killAfterMs: context.killAfterMs,
    signal: context.signal,
    force: context.force,
    keepStdout: 64 * 1024,
  });
  if (result.status === 'not-started') return fail('spawn-failed', `${gsd.path} could not start`);
  if (result.status === 'stopped') return stopped(result.stop);
  if (result.timedOut || result.exitCode !== 0) {
    const tail = tailOf(result.output.text).text;
    return fail('query-failed', `${endingText('runtime-identity', result, IDENTITY_TIMEOUT_MS / 1000, 'sentence')}${tail === '' ? '' : `: ${tail}`}`);
  }
  const identity = parseIdentity(result.stdout?.text ?? '', gsd.path);
  return identity.ok ? ok(identity.value.version) : identity;
}
