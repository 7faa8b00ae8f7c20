// The generative differential, run long: `npm run fuzz:compat -- --runs N
// --seed S [--concurrency C]`. Exits 1 when a case differs with no
// classifier, after printing its shrunk reproduction.
import { parseArgs } from 'node:util';
import { explore, report } from './generative/differential.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    seed: { type: 'string', default: String(Date.now() % 2 ** 31) },
    concurrency: { type: 'string', default: '2' },
  },
});
const numbers = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Number(v)]));
for (const [k, v] of Object.entries(numbers)) {
  if (!Number.isSafeInteger(v) || v < (k === 'seed' ? 0 : 1)) throw new Error(`--${k} must be a whole number, got ${values[k]}`);
}
let shown = 0;
const started = Date.now();
const result = await explore({
  ...numbers,
  onProgress: (done, runs, outcomes, index) => {
    if (outcomes[index] === 'unclassified') process.stderr.write(`case ${index} differs with no classifier\n`);
    if (done - shown >= 250 || done === runs) {
      shown = done;
      const tally = {};
      for (const o of outcomes) if (o !== undefined && o !== 'same') tally[o] = (tally[o] ?? 0) + 1;
      process.stderr.write(`${done}/${runs} after ${Math.round((Date.now() - started) / 1000)} s: ${JSON.stringify(tally)}\n`);
    }
  },
});
console.log(report(result));
process.exitCode = result.unclassified.length === 0 ? 0 : 1;
