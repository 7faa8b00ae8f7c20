import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluationSupported } from '../../src/cli/platform.ts';

test('Windows is refused with the reason and a way out; POSIX systems run', () => {
  const windows = evaluationSupported('win32');
  assert.deepEqual(windows.ok ? 'accepted' : [windows.failure.reason, windows.failure.message], [
    'unsupported-platform',
    'gates cannot be run on Windows: there is no sh and no process groups to bound them; run gsd-check under WSL, or on Linux or macOS',
  ]);
  for (const platform of ['linux', 'darwin', 'freebsd']) assert.equal(evaluationSupported(platform).ok, true, platform);
});
