import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { parseCommandLine } from '../../src/cli/command-line.ts';
import { usage } from '../helpers/command-line.ts';

test('validate: files and --json', () => {
  assert.deepEqual(parseCommandLine(['validate', 'a.json', 'b.json', '--json']), {
    ok: true,
    value: { action: 'validate', options: { files: ['a.json', 'b.json'], json: true, jsonErrors: false } },
  });
  assert.equal(usage(['validate']), 'validate needs at least one capability file');
});
