// The generative differential, run long: `npm run fuzz:compat -- --runs N
// --seed S [--concurrency C] [--only I,J] [--family F]` (F: all, or one of
// differential.mjs's FAMILIES). Exits 1 when a case differs with no
// classifier: each is printed as it is found (unshrunk, with its index to
// replay it by `--only`), and the first few again, shrunk, at the end.
// SIGINT or SIGTERM stops it cleanly: the cases under way are ended and
// awaited and their directories removed, then it exits 130 or 143.
import { parseArgs } from 'node:util';
import { FAMILIES, describe, explore, report } from './generative/differential.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    seed: { type: 'string', default: String(Date.now() % 2 ** 31) },
    concurrency: { type: 'string', default: '2' },
    only: { type: 'string' },
    family: { type: 'string', default: 'all' },
  },
});
const { only: onlyText, family, ...counts } = values;
if (!Object.hasOwn(FAMILIES, family)) throw new Error(`--family must be one of ${Object.keys(FAMILIES).join(', ')}, got ${family}`);
const numbers = Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, Number(v)]));
for (const [k, v] of Object.entries(numbers)) {
  if (!Number.isSafeInteger(v) || v < (k === 'seed' ? 0 : 1)) throw new Error(`--${k} must be a whole number, got ${values[k]}`);
}
const only = onlyText?.split(',').map(Number);
if (only !== undefined && !only.every((i) => Number.isSafeInteger(i) && i >= 0 && i < numbers.runs)) {
  throw new Error(`--only must list case indices below --runs (${numbers.runs}), got ${onlyText}`);
}
const stop = new AbortController();
const EXIT_ON = { SIGINT: 130, SIGTERM: 143 };
for (const name of Object.keys(EXIT_ON)) {
  process.once(name, () => {
    process.stderr.write(`${name}: stopping; ending the cases under way and removing their directories\n`);
    stop.abort(name);
  });
}
let shown = 0;
const started = Date.now();
process.stderr.write(
  `${only?.length ?? numbers.runs} cases of seed ${numbers.seed}${family === 'all' ? '' : ` (family ${family})`}, ${numbers.concurrency} at a time\n`,
);
const onProgress = (done, runs, outcomes, index, judged) => {
  if (outcomes[index] === 'unclassified')
    process.stderr.write(
      `case ${index} differs with no classifier (replay: --runs ${numbers.runs} --seed ${numbers.seed}${family === 'all' ? '' : ` --family ${family}`} --only ${index}):\n${describe(judged)}\n`,
    );
  if (done - shown >= 250 || done === runs) {
    shown = done;
    const tally = {};
    for (const o of outcomes) if (o !== undefined && o !== 'same') tally[o] = (tally[o] ?? 0) + 1;
    process.stderr.write(`${done}/${runs} after ${Math.round((Date.now() - started) / 1000)} s: ${JSON.stringify(tally)}\n`);
  }
};
try {
  const result = await explore({ ...numbers, only, family, signal: stop.signal, onProgress });
  console.log(report(result));
  process.exitCode = result.unclassified.length === 0 ? 0 : 1;
} catch (error) {
  if (!stop.signal.aborted) throw error;
  process.stderr.write(`stopped by ${stop.signal.reason} after ${Math.round((Date.now() - started) / 1000)} s\n`);
  process.exitCode = EXIT_ON[stop.signal.reason];
}
