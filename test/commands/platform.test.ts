import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { commandSupported } from '../../src/commands/platform.ts';

test('Windows is refused with the reason and a way out; POSIX systems run', () => {
  const windows = commandSupported('win32', 'check-predicate');
  assert.deepEqual(windows.ok ? 'accepted' : [windows.failure.reason, windows.failure.message], [
    'unsupported-platform',
    'gates cannot be run on Windows: there is no sh and no process groups to bound them; run gsd-check under WSL, or on Linux or macOS',
  ]);
  assert.equal(commandSupported('win32', 'gates-run').ok, false);
  for (const platform of ['linux', 'darwin', 'freebsd']) {
    for (const command of ['check-predicate', 'gates-run', 'validate']) assert.equal(commandSupported(platform, command).ok, true, `${platform} ${command}`);
  }
});

test('validate checks files only, and runs on Windows too', () => {
  assert.equal(commandSupported('win32', 'validate').ok, true);
});
