import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { COMMAND_PREFIX, COMMANDS, commandNamed, isShell, SHELLS } from '../../src/cli/command-table.ts';
import { helpText } from '../../src/cli/help.ts';

test('every command with a summary is in --help, by its usage; names and spellings are unique', () => {
  const help = helpText();
  for (const command of COMMANDS) {
    if (command.summary !== undefined) assert.ok(help.includes(`\n  gsd-check ${command.usage}\n`), command.name);
    assert.ok(command.usage.startsWith(command.name), command.name);
    assert.equal(commandNamed(command.name), command);
  }
  // Every command but help, completion included, is in --help.
  assert.deepEqual(
    COMMANDS.filter((command) => command.summary === undefined).map((command) => command.name),
    ['help'],
  );
  const spellings = COMMANDS.flatMap((command) => [command.name, ...command.aliases]);
  assert.deepEqual(spellings, [...new Set(spellings)]);
  assert.ok(!spellings.some((spelling) => spelling.split(' ')[0] === COMMAND_PREFIX));
});

test('completion: the shells there is a script for', () => {
  assert.deepEqual(SHELLS, ['bash']);
  assert.equal(isShell('bash'), true);
  assert.equal(isShell('zsh'), false);
});
