import { fail, ok, type Result } from '../../failure.ts';
import type { GatesOptions } from '../../cli/gates-options.ts';
import type { GsdAsk } from '../../gsd/ask.ts';
import { BUILT_IN_VERSION, identify, isTested, TESTED_LINE, versionOnDisk } from '../../gsd/identity.ts';
import { SEARCHED, type Gsd } from '../../gsd/installation.ts';
import type { GsdDetails as GsdReport } from '../../gates/provenance.ts';

// Which GSD decides a run: the one `gsd_run` would find, for --render (it
// renders the hooks), --builtin (its registry is the one that counts, and
// gsd-check's is 1.14's) and the query gates when no query command is
// given; and which version it says it is.

interface Decider {
  readonly gsd: Gsd | undefined;
  readonly report: GsdReport | undefined;
  readonly warnings: readonly string[];
}

// For --render and --builtin: the GSD found, and what it says it is. A
// version gsd-check is not tested with is a warning, or with
// --require-tested-gsd a failure; --render without any GSD fails.
// `find`: the GSD named or found (gsd/installation.ts's findGsd, once a run).
export async function decider(options: GatesOptions, find: () => Promise<Result<Gsd | undefined>>, asking: (gsd: Gsd) => GsdAsk): Promise<Result<Decider>> {
  if (!options.render && !options.builtin) return ok({ gsd: undefined, report: undefined, warnings: [] });
  const found = await find();
  if (!found.ok) return found;
  const gsd = found.value;
  if (gsd === undefined) {
    if (options.render)
      return fail('spawn-failed', `--render: no GSD found where gsd_run looks (${SEARCHED}); install GSD, name it with --gsd, or give --hooks`);
    return ok({ gsd, report: { found: null, version: null, tested: false, registry: BUILT_IN_VERSION }, warnings: [] });
  }
  // --builtin runs none of GSD's code, the repository's own included: its
  // package says which GSD it is, or nothing does.
  if (!options.render) return builtinDecider(options, gsd);
  const identified = await identify(gsd, asking(gsd));
  if (!identified.ok && identified.failure.reason === 'stopped') return identified;
  // What runtime-identity said; else, for a GSD older than the verb, what its package says.
  const version = identified.ok ? identified.value : versionOnDisk(gsd);
  const report: GsdReport = {
    found: gsd.path,
    version: version ?? null,
    tested: identified.ok && isTested(identified.value),
    ...(options.builtin ? { registry: BUILT_IN_VERSION } : {}),
  };
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

// --builtin's GSD, by the version its package says: a GSD gsd-check is not
// tested with, or one that says none, is warned of (or fails).
function builtinDecider(options: GatesOptions, gsd: Gsd): Result<Decider> {
  const version = versionOnDisk(gsd);
  const report: GsdReport = { found: gsd.path, version: version ?? null, tested: version !== undefined && isTested(version), registry: BUILT_IN_VERSION };
  if (report.tested) return ok({ gsd, report, warnings: [] });
  const said =
    version === undefined
      ? 'has no package.json beside it that says which GSD it is (--builtin runs none of its code to ask)'
      : `is GSD ${version} by its package.json`;
  const problem = `--builtin runs GSD ${BUILT_IN_VERSION}'s built-in gates, but the GSD gsd_run finds, ${gsd.path} (${gsd.found}), ${said}: its own gates may differ; --render evaluates what it loads`;
  if (options.requireTestedGsd) return fail('untested-gsd', problem);
  return ok({ gsd, report, warnings: [problem] });
}
