import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { queryCommand } from '../../src/commands/context.ts';
import { tempDir } from '../helpers/support.ts';

test('--query-command, else GSD_CHECK_QUERY_COMMAND, else gsd-tools on PATH, else none', (t) => {
  const bin = tempDir(t);
  writeFileSync(join(bin, 'gsd-tools'), '#!/bin/sh\n');
  chmodSync(join(bin, 'gsd-tools'), 0o755);
  const env = { GSD_CHECK_QUERY_COMMAND: 'from-env', PATH: bin };
  assert.deepEqual(queryCommand({ queryCommand: 'given', queryTimeout: 2.5 }, env), { command: 'given', timeoutMs: 2500 });
  assert.deepEqual(queryCommand({ queryTimeout: 30 }, env), { command: 'from-env', timeoutMs: 30_000 });
  // A blank variable is no command.
  assert.deepEqual(queryCommand({ queryTimeout: 30 }, { ...env, GSD_CHECK_QUERY_COMMAND: ' \t' }), {
    command: `'${join(bin, 'gsd-tools')}' check "$GSD_QUERY" "$PHASE_NUMBER" --raw`,
    timeoutMs: 30_000,
  });
  assert.equal(queryCommand({ queryTimeout: 30 }, { PATH: join(bin, 'none') }), undefined);
  assert.equal(queryCommand({ queryTimeout: 30 }, {}), undefined);
});
