import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { configObject, readConfigFile } from '../../src/project/config-file.ts';
import { MAX_INPUT_BYTES } from '../../src/io/input.ts';
import { tempDir } from '../helpers/support.ts';

const read = (path: string) => {
  const result = readConfigFile(path, 'config c.json');
  return result.ok ? result.value : [result.failure.reason, result.failure.message];
};

test('a config that is there is an object; one that is not there is none', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'c.json'), '\ufeff{"workflow": {"x": true}}');
  assert.deepEqual(read(join(dir, 'c.json')), { workflow: { x: true } });
  assert.equal(read(join(dir, 'none.json')), undefined);
  // A file where a directory should be on the way is no config either.
  writeFileSync(join(dir, 'file'), '');
  assert.equal(read(join(dir, 'file', 'c.json')), undefined);
});

test('one cap for every reader: a config up to 1 MiB is read, one past it is not; bytes that are not UTF-8 read as U+FFFD, as GSD reads them', (t) => {
  const dir = tempDir(t);
  const padded = (size: number) => {
    const head = '{"sub_repos": ["api"], "pad": "';
    return `${head}${'x'.repeat(size - head.length - 2)}"}`;
  };
  writeFileSync(join(dir, 'big.json'), padded(MAX_INPUT_BYTES));
  assert.deepEqual((read(join(dir, 'big.json')) as { sub_repos: string[] }).sub_repos, ['api']);
  writeFileSync(join(dir, 'over.json'), padded(MAX_INPUT_BYTES + 1));
  assert.deepEqual(read(join(dir, 'over.json')), ['unreadable-file', `config c.json is larger than ${MAX_INPUT_BYTES} bytes`]);
  writeFileSync(join(dir, 'latin1.json'), Buffer.from('{"a": "Jos\xe9"}', 'latin1'));
  assert.deepEqual(read(join(dir, 'latin1.json')), { a: 'Jos\ufffd' });
});

test('a FIFO, a directory or a file we may not read is refused at once, never waited on', (t) => {
  const dir = tempDir(t);
  assert.equal(spawnSync('mkfifo', [join(dir, 'fifo.json')]).status, 0);
  assert.deepEqual(read(join(dir, 'fifo.json')), ['unreadable-file', 'cannot read config c.json: not a regular file']);
  mkdirSync(join(dir, 'dir.json'));
  assert.deepEqual(read(join(dir, 'dir.json')), ['unreadable-file', 'cannot read config c.json: not a regular file']);
});

test('strict JSON, and an object', () => {
  assert.deepEqual(configObject(Buffer.from('{"a": 1}'), 'x'), { ok: true, value: { a: 1 } });
  const twice = configObject(Buffer.from('{"a": 1, "a": 2}'), 'x');
  assert.equal(twice.ok ? 'accepted' : twice.failure.reason, 'invalid-json');
  for (const text of ['[]', 'null', '"a"', '3']) {
    const result = configObject(Buffer.from(text), '--config c.json');
    assert.deepEqual(result.ok ? 'accepted' : [result.failure.reason, result.failure.message], ['invalid-json', '--config c.json is not a JSON object'], text);
  }
});
