// The mutation harness's tokenizer (mutate/mutants.mjs): it must end on every
// source file of src/, and read code inside a template's `${…}` as code. It
// runs in a child with a time bound, since a tokenizer that loops never gives
// the test back its thread.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from '../helpers/bounded.ts';
import { ROOT } from '../helpers/support.ts';

const mutantsOf = (sources: string[]): { description: string; start: number }[][] => {
  const script = `import { mutants } from ${JSON.stringify(pathToFileURL(join(ROOT, 'mutate', 'mutants.mjs')).href)};
let input = '';
process.stdin.setEncoding('utf8').on('data', (s) => (input += s)).on('end', () => {
  process.stdout.write(JSON.stringify(JSON.parse(input).map((src) => mutants(src))));
});`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { input: JSON.stringify(sources), encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.signal, null, 'the tokenizer did not end');
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { description: string; start: number }[][];
};

test('every source file of src/ is tokenized to its end', () => {
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const sources = files.map((f) => readFileSync(join(ROOT, 'src', f), 'utf8'));
  const all = mutantsOf(sources);
  assert.equal(all.length, files.length);
  assert.ok(all.reduce((n, ms) => n + ms.length, 0) > files.length, 'src/ yields mutants');
});

test("a quote in a regular expression inside a template's ${…} is not a string: the code after the template is still mutated", () => {
  const src = "const q = `'${p.replace(/'/g, \"x\")}'` === b;\nif (c < 2) d();\n";
  const [ms] = mutantsOf([src]);
  assert.deepEqual(
    ms!.map((m) => m.description),
    ['=== → !==', 'if condition negated', '< → <=', '2 → 3'],
  );
});

test('an unclosed comment, string, template or regular expression ends at the end of the source', () => {
  for (const src of ['a < b /* open', 'a < b; "open', 'a < b; `open ${x', 'a < b; x = /open']) {
    const [ms] = mutantsOf([src]);
    assert.deepEqual(
      ms!.map((m) => m.description),
      ['< → <='],
      src,
    );
  }
});
