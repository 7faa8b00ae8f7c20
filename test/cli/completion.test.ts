import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { completionScript } from '../../src/cli/help.ts';
import { isShell } from '../../src/cli/command-table.ts';
import { cli } from '../helpers/support.ts';

// What bash offers after the words typed so far (the last one being completed).
function offered(...words: string[]): string[] {
  const script = `${completionScript('bash')}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_gsd_check; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8' });
  assert.equal(result.stderr, '');
  return result.stdout.split('\n').filter((line) => line !== '');
}

test('bash completes commands, subcommands, the flags of the command typed, and flag values', () => {
  assert.deepEqual(offered('gsd-check', ''), ['check', 'check.predicate', 'gates', 'validate', 'schema', 'completion', 'help', '--help', '--version']);
  assert.deepEqual(offered('gsd-check', 'check', ''), ['predicate']);
  assert.deepEqual(offered('gsd-check', 'gates', 'run', '--po'), ['--point']);
  assert.deepEqual(offered('gsd-check', 'gates', 'run', '--point', 'ship:p'), ['ship:pre', 'ship:post']);
  // A flag's value is not taken for a command word.
  assert.deepEqual(offered('gsd-check', 'check', 'predicate', '--pick', 'block', '--ex'), ['--exit-code', '--exit-contract']);
  assert.deepEqual(offered('gsd-check', 'check.predicate', '--poi'), []);
  assert.deepEqual(offered('gsd-check', 'validate', 'a.json', '--j'), ['--json', '--json-errors']);
});

test('only the shells there is a script for', () => {
  assert.equal(isShell('bash'), true);
  assert.equal(isShell('zsh'), false);
});

test('gsd-check completion bash prints the script, exit 0', async () => {
  const result = await cli(['completion', 'bash']);
  assert.deepEqual(result, { ...result, status: 0, stdout: completionScript('bash'), stderr: '' });
});
