// The long run, stopped by hand: it must leave nothing behind, neither a
// case's directory in TMPDIR nor a process of a case under way.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO } from '../harness.mjs';

// The processes whose environment holds `mark`: the run's own children, and
// theirs, inherit it.
function marked(mark) {
  return readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(mark);
    } catch {
      return false;
    }
  });
}

async function until(what, condition, boundMs = 60_000) {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > boundMs) throw new Error(`${what}: not within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const [name, status] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  test(`fuzz:compat stopped by ${name} while cases run: exit ${status}, every case's directory removed, no process left`, async (t) => {
    const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-fuzz-stop-')));
    const mark = `FUZZ_STOP_MARK=${randomUUID()}`;
    t.after(() => {
      for (const pid of marked(mark)) process.kill(Number(pid), 'SIGKILL');
      rmSync(tmp, { recursive: true, force: true });
    });
    const child = spawn(process.execPath, [join(REPO, 'compat', 'fuzz.mjs'), '--runs', '200', '--seed', '3'], {
      env: { ...process.env, TMPDIR: tmp, FUZZ_STOP_MARK: mark.slice('FUZZ_STOP_MARK='.length) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s) => (stderr += s));
    child.stdout.resume();
    const ended = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
    // Ready when a case's own directory exists: both tools are then starting.
    await until('a case under way', () => readdirSync(tmp).some((entry) => /^gsd-fuzz-(?!cache-)/.test(entry)));
    child.kill(name);
    assert.deepEqual(await ended, { code: status, signal: null }, stderr);
    assert.match(
      stderr,
      new RegExp(`^${name}: stopping; ending the cases under way and removing their directories\\nstopped by ${name} after \\d+ s\\n$`, 'm'),
    );
    assert.deepEqual(readdirSync(tmp), []);
    assert.deepEqual(marked(mark), []);
  });
}
