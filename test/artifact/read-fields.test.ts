import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFields } from '../../src/artifact/off-thread.ts';

// A thread that answers with a failure of its own: where it shows, the
// frontmatter went off the main thread.
const code = 'require("node:worker_threads").parentPort.postMessage(require("node:v8").serialize({ ok: false, failure: { reason: "invalid-artifact", message: "OFF", issues: [] } }))';
const where = async (text: string, signal?: AbortSignal): Promise<string> => {
  const result = await readFields(text, 'F.md', { code: signal === undefined ? code : 'throw new Error("started")', signal });
  if (!result.ok) return result.failure.reason === 'stopped' ? 'stopped' : result.failure.message === 'OFF' ? 'off' : `FAIL ${result.failure.message}`;
  return result.value.mapping ? `in ${Object.keys(result.value.fields).length}` : 'in';
};

// Quoted keys, which only the YAML library reads, to exactly `bytes` bytes.
function quoted(bytes: number): string {
  let text = '';
  for (let i = 0; text.length + 12 < bytes; i++) text += `"k${String(i).padStart(4, '0')}": 1\n`;
  return text + `#${'-'.repeat(bytes - text.length - 2)}\n`;
}

test('up to 8 KiB the library parses on the main thread; past it, in a thread', async () => {
  assert.equal(Buffer.byteLength(quoted(8192)), 8192);
  assert.equal(await where(quoted(8192)), 'in 744');
  assert.equal(await where(quoted(8193)), 'off');
  // Multi-byte text counts in bytes: 4,103 characters of it are 8,198 bytes.
  assert.equal(await where(`"k": "${'é'.repeat(4095)}"\n`), 'off');
});

test('plain key: value lines and frontmatter over the cap never start a thread', async () => {
  let plain = '';
  for (let i = 0; plain.length < 60_000; i++) plain += `k${i}: ${i}\n`;
  assert.match(await where(plain), /^in \d+$/);
  assert.equal(await where(`${quoted(64 * 1024)}x: 1\n`), 'FAIL F.md: the frontmatter is larger than 64 KiB');
});

test('a stop signal before a large parse: stopped, no thread', async () => {
  const stop = new AbortController();
  stop.abort('SIGTERM');
  assert.equal(await where(quoted(9000), stop.signal), 'stopped');
});
