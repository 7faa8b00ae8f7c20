import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EXIT_BLOCK, EXIT_FAILURE, EXIT_INTERNAL, EXIT_INVALID, EXIT_WRITE_FAILED } from '../src/failure.ts';

test('the exit statuses docs/reference/cli.md lists', () => {
  assert.deepEqual([EXIT_BLOCK, EXIT_INVALID, EXIT_FAILURE, EXIT_INTERNAL, EXIT_WRITE_FAILED], [1, 1, 2, 70, 74]);
});
