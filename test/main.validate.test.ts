// `validate` through the shipped artefact, spawned as a user would: exit
// status, stdout and stderr.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONCURRENTLY, describe, test } from './helpers/bounded.ts';
import { feature } from './helpers/manifest.ts';
import { cli, ROOT, tempDir } from './helpers/support.ts';

describe('validate', CONCURRENTLY, () => {
  test('validate: exit 0 for capability files GSD loads, 1 with every issue, 2 for an unreadable file', async (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'good.json'), JSON.stringify(feature({})));
    assert.deepEqual(await cli(['validate', 'good.json'], { cwd: dir }), { status: 0, signal: null, stdout: 'good.json: valid (1 gate)\n', stderr: '' });
    // Copies of GSD's own, as gsd-check's fixtures are: GSD keeps its own.
    const fixtures = join(ROOT, 'test/fixtures/capabilities');
    const copies = await cli(['validate', 'security.json', 'broken-windows.json', 'tdd.json', '--json'], { cwd: fixtures });
    assert.equal(copies.status, 1);
    assert.deepEqual(
      JSON.parse(copies.stdout).files.map((f: { gsdLoads: boolean; gates: number; issues: { path: string }[] }) => [
        f.gsdLoads,
        f.gates,
        f.issues.map((i) => i.path),
      ]),
      [
        [false, 3, ['id', 'config["workflow.security_enforcement"]']],
        [false, 2, ['id', 'config["workflow.windows_enforce"]']],
        [false, 2, ['id', 'config["workflow.tdd_mode"]']],
      ],
    );
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify(
        feature({
          gates: [{ point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'x', timeOut: 1 } }, blocking: true, onError: 'halt' }, null],
        }),
      ),
    );
    assert.deepEqual(await cli(['validate', 'bad.json'], { cwd: dir }), {
      status: 1,
      signal: null,
      stdout:
        'bad.json: gates[0].check.predicate.timeOut: unknown field; did you mean "timeout"?\nbad.json: gates[1]: must be an object, got null\nbad.json: GSD 1.14.0 would not load this capability (for gates[1]), so none of its 2 gates would be enforced\n',
      stderr: '',
    });
    const json = await cli(['validate', 'bad.json', '--json'], { cwd: dir });
    assert.deepEqual([json.status, JSON.parse(json.stdout).valid, JSON.parse(json.stdout).files[0].gsdLoads], [1, false, false]);
    assert.deepEqual(await cli(['validate', 'missing.json'], { cwd: dir }), {
      status: 2,
      signal: null,
      stdout: '',
      stderr: 'gsd-check: cannot read capability file missing.json: no such file\n',
    });
  });

  test('validate: a manifest of only an id, a version and gates is one GSD 1.14 would not load, and says so', async (t) => {
    const dir = tempDir(t);
    writeFileSync(
      join(dir, 'x.json'),
      JSON.stringify({ id: 'x', version: '1.0.0', gates: [{ point: 'ship:pre', check: { query: 'q' }, blocking: true, onError: 'halt' }] }),
    );
    const result = await cli(['validate', 'x.json'], { cwd: dir });
    assert.deepEqual([result.status, result.stderr], [1, '']);
    assert.equal(
      result.stdout.split('\n').at(-2),
      'x.json: GSD 1.14.0 would not load this capability (for role, title, description, tier, requires and 6 more), so its gate would not be enforced',
    );
    // engines.gsd is read against GSD 1.14.0.
    writeFileSync(join(dir, 'y.json'), JSON.stringify(feature({ engines: { gsd: '>=2.0.0' } })));
    assert.deepEqual(await cli(['validate', 'y.json'], { cwd: dir }), {
      status: 1,
      signal: null,
      stdout:
        'y.json: engines.gsd: ">=2.0.0" excludes GSD 1.14.0, the GSD gsd-check checks against\ny.json: GSD 1.14.0 would not load this capability (for engines.gsd), so its gate would not be enforced\n',
      stderr: '',
    });
    // At GSD's layout, the id is the folder's name; elsewhere (standard input too) it is not held to one.
    const installed = '.gsd/capabilities/release/capability.json';
    mkdirSync(join(dir, '.gsd/capabilities/release'), { recursive: true });
    writeFileSync(join(dir, installed), JSON.stringify(feature({})));
    assert.deepEqual(await cli(['validate', installed, '-'], { cwd: dir, input: JSON.stringify(feature({})) }), {
      status: 1,
      signal: null,
      stdout: `${installed}: id: must be the name of its folder, "release", got "release-checks"\n${installed}: GSD 1.14.0 would not load this capability (for id), so its gate would not be enforced\n-: valid (1 gate)\n`,
      stderr: '',
    });
  });

  test('validate: a manifest of a megabyte with thousands of issues prints its first 100 and a count, text and --json alike', async (t) => {
    const dir = tempDir(t);
    const gate = { point: 'ship:pre', check: { query: 'q' }, blocking: true, onError: 'halt' };
    // Keys and gates enough to fill most of the megabyte gsd-check reads (the size is asserted).
    const count = 6500;
    const config = Object.fromEntries(Array.from({ length: count }, (_, i) => [`undescribed.key_${i}`, { type: 'boolean' }]));
    const gates = Array.from({ length: count }, (_, i) => ({ ...gate, when: `undeclared.when_${i}` }));
    const text = JSON.stringify(feature({ config, gates }));
    assert.ok(text.length > 900 * 1024, `${text.length} bytes`);
    assert.ok(text.length <= 1024 * 1024, 'within what gsd-check reads');
    writeFileSync(join(dir, 'big.json'), text);
    const plain = await cli(['validate', 'big.json'], { cwd: dir });
    assert.deepEqual([plain.status, plain.stderr], [1, '']);
    const lines = plain.stdout.split('\n');
    assert.equal(lines.length, 103);
    assert.equal(lines[0], 'big.json: config["undescribed.key_0"].default: is required (true or false, as its type says)');
    const all = JSON.parse((await cli(['validate', 'big.json', '--json'], { cwd: dir })).stdout).files[0];
    assert.equal(all.issues.length, 100);
    assert.deepEqual(lines.slice(100), [
      `big.json: and ${all.moreIssues} more issues, not told`,
      `big.json: GSD 1.14.0 would not load this capability (for config["undescribed.key_0"].default, config["undescribed.key_0"].description, config["undescribed.key_1"].default, config["undescribed.key_1"].description, config["undescribed.key_2"].default and ${all.moreIssues + 100 - 5} more), so none of its ${gates.length} gates would be enforced`,
      '',
    ]);
    assert.ok(all.moreIssues > 3 * gates.length - 100, `${all.moreIssues} more issues`);
    // Both well under the 2 MiB the issue asks of any input.
    assert.ok(Buffer.byteLength(plain.stdout) < 64 * 1024, `${Buffer.byteLength(plain.stdout)} bytes`);
  });

  test("validate: a file that starts with a byte order mark is one GSD's loader cannot parse, and says so", async (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'bom.json'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(feature({})))]));
    assert.deepEqual(await cli(['validate', 'bom.json'], { cwd: dir }), {
      status: 1,
      signal: null,
      stdout:
        "bom.json: the file starts with a UTF-8 byte order mark (EF BB BF), which GSD's loader cannot parse as JSON: save it without one\nbom.json: GSD 1.14.0 would not load this capability (for the file), so its gate would not be enforced\n",
      stderr: '',
    });
  });
});
