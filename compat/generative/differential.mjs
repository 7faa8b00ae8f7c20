// The generative differential: `runs` cases from `seed`, each run through
// both tools and, where the answers part, classified. The cases are run a few
// at a time (each is two processes); every case that differs with no
// classifier is named (its index: fast-check's path to replay it from the
// seed), and the first few are then shrunk by fast-check, replaying each run
// from the same seed, to minimal reproductions.
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anyCase, findPhaseCases, stateCases } from './arbitraries.mjs';
import { classify } from './classify.mjs';
import { differs, runCase } from './run-case.mjs';

export const CASES = fc.oneof({ weight: 9, arbitrary: anyCase }, { weight: 1, arbitrary: findPhaseCases }, { weight: 1, arbitrary: stateCases });

// `--family`: the cases of one family alone (a seed's cases then differ from
// the whole run's).
export const FAMILIES = { all: CASES, 'check-predicate': anyCase, 'find-phase': findPhaseCases, state: stateCases };

async function judge(c, cache, signal) {
  const { gsd, check } = await runCase(c, cache, signal);
  if (!differs(c, gsd, check)) return { gsd, check, outcome: 'same' };
  const classifier = classify(c, gsd, check);
  return { gsd, check, outcome: classifier === undefined ? 'unclassified' : classifier.id };
}

// How many unclassified cases are shrunk and printed in full: each shrink
// replays the case many times; the rest are listed by index.
export const SHRUNK = 5;

// `signal`: aborting it stops the run the way a failing case does (no case
// starts, those under way are killed and awaited, every directory is
// removed); the run then rejects with the signal's reason.
export async function explore({ runs, seed, concurrency = 2, only, family = 'all', onProgress = () => {}, signal }) {
  const cache = mkdtempSync(join(tmpdir(), 'gsd-fuzz-cache-'));
  try {
    return await exploreWith({ runs, seed, concurrency, only, cases: FAMILIES[family], onProgress, cache, signal });
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

// `only`: the indices to run of the seed's `runs` cases (to replay some);
// all of them when absent.
async function exploreWith({ runs, seed, concurrency, only, cases: arbitrary, onProgress, cache, signal }) {
  const started = Date.now();
  const cases = fc.sample(arbitrary, { seed, numRuns: runs });
  const indices = only ?? cases.map((_, i) => i);
  const outcomes = new Array(cases.length);
  let next = 0;
  let done = 0;
  // A case that throws stops the others from starting, and the run waits for
  // those under way before it rethrows: the cache is removed only when no case
  // still writes to it, so the error shown is the case's, not the removal's.
  let failure;
  const settled = await Promise.allSettled(
    Array.from({ length: Math.min(concurrency, indices.length) }, async () => {
      while (next < indices.length && failure === undefined && !signal?.aborted) {
        const index = indices[next++];
        try {
          const judged = await judge(cases[index], cache, signal);
          outcomes[index] = judged.outcome;
          onProgress(++done, indices.length, outcomes, index, { case: cases[index], ...judged });
        } catch (error) {
          failure ??= error;
        }
      }
    }),
  );
  const rejected = settled.find((r) => r.status === 'rejected');
  signal?.throwIfAborted();
  if (failure !== undefined || rejected !== undefined) throw failure ?? rejected.reason;
  const byId = {};
  for (const outcome of outcomes) if (outcome !== undefined && outcome !== 'same') byId[outcome] = (byId[outcome] ?? 0) + 1;
  const unclassified = outcomes.flatMap((o, i) => (o === 'unclassified' ? [i] : []));
  const differ = outcomes.filter((o) => o !== undefined && o !== 'same').length;
  const result = { runs: indices.length, of: runs, seed, seconds: (Date.now() - started) / 1000, differ, byId, unclassified, reproductions: [] };
  for (const index of unclassified.slice(0, SHRUNK)) result.reproductions.push(await shrink({ runs, seed, index, arbitrary, cache, signal }));
  return result;
}

// fast-check replays run `index` of `seed` and shrinks it while it still
// differs with no classifier.
async function shrink({ runs, seed, index, arbitrary, cache, signal }) {
  let last;
  const property = fc.asyncProperty(arbitrary, async (c) => {
    const judged = await judge(c, cache, signal);
    if (judged.outcome !== 'unclassified') return true;
    last = { case: c, gsd: judged.gsd, check: judged.check };
    return false;
  });
  const details = await fc.check(property, { seed, numRuns: runs, path: String(index) });
  if (!details.failed) return { note: `case ${index} no longer differs with no classifier when run again`, index };
  // The last failing run is the shrunk counterexample: fast-check stops
  // shrinking at the last case that still failed.
  const shrunk = details.counterexample[0];
  const answers = JSON.stringify(last.case) === JSON.stringify(shrunk) ? last : { case: shrunk, ...(await runCase(shrunk, cache, signal)) };
  return { index, path: details.counterexamplePath, ...answers };
}

const shown = (a) =>
  `exit ${a.status}${a.signal ? ` (${a.signal})` : ''}, verdict ${JSON.stringify(a.verdict)}, ran in ${a.ranIn}\n` +
  `    stdout: ${JSON.stringify(a.stdout.slice(0, 600))}\n    stderr: ${JSON.stringify(a.stderr.slice(0, 600))}`;

function files(tree) {
  return Object.entries(tree)
    .map(
      ([path, entry]) =>
        `    ${path}: ${typeof entry === 'string' ? JSON.stringify(entry.length > 300 ? `${entry.slice(0, 300)}… (${entry.length} characters)` : entry) : JSON.stringify(entry).slice(0, 300)}`,
    )
    .join('\n');
}

export function report(result) {
  const entries = Object.entries(result.byId);
  const ids = entries
    .filter(([id]) => /^D\d+$/.test(id))
    .sort(([a], [b]) => Number(a.slice(1)) - Number(b.slice(1)))
    .map(([id, n]) => `${id} ${n}`)
    .join(', ');
  const lines = [
    `generative differential: seed ${result.seed}, ${result.runs} cases in ${result.seconds.toFixed(1)} s; ${result.differ} differ (${ids || 'none'}); ${result.unclassified.length} unclassified`,
  ];
  if (result.unclassified.length > 0) {
    lines.push(
      `unclassified: cases ${result.unclassified.join(', ')} of seed ${result.seed} (replay one with --runs ${result.of} --seed ${result.seed} --only <case>); ` +
        `the first ${Math.min(SHRUNK, result.unclassified.length)} shrunk below`,
    );
  }
  for (const r of result.reproductions) {
    if (r.case === undefined) {
      lines.push(`unclassified ${r.index}: ${r.note}`);
      continue;
    }
    lines.push(`unclassified ${r.index} of seed ${result.seed}, shrunk by fast-check (path ${r.path}):`, describe(r));
  }
  return lines.join('\n');
}

// A case and both answers, as a reproduction.
export function describe(r) {
  const command = r.case.family === 'find-phase' ? `gsd-tools find-phase ${JSON.stringify(r.case.argv[0])} --raw` : 'check predicate';
  const args =
    r.case.family === 'state'
      ? `gsd-tools state-snapshot --raw against gsd-check check predicate ${JSON.stringify(r.case.argv)}`
      : r.case.line === undefined
        ? `argv after \`${command}\`: ${JSON.stringify(r.case.argv)}`
        : `the whole line: ${JSON.stringify(r.case.line)}`;
  return [
    `  family ${r.case.family}; ${args}`,
    `  cwd ${r.case.cwd}; env ${JSON.stringify(r.case.env)}`,
    '  files:',
    files(r.case.tree),
    `  gsd-tools: ${shown(r.gsd)}`,
    `  gsd-check: ${shown(r.check)}`,
  ].join('\n');
}
