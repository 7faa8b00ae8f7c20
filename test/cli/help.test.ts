import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { COMMANDS, FLAGS, takes } from '../../src/cli/command-table.ts';
import { commandHelp, helpText, KIND_SUMMARIES } from '../../src/cli/help.ts';
import { KINDS } from '../../src/kinds/table.ts';
import { ROOT } from '../helpers/support.ts';

test('--help teaches: the kinds, examples, the environment that matters, and where the docs are', () => {
  const help = helpText();
  for (const name of KINDS.keys()) assert.ok(help.includes(`\n  ${name} `) || help.includes(`\n  ${name}\n`), name);
  assert.match(help, /\nExamples:\n {2}# a command gate; exit 1 when it blocks\n {2}gsd-check check predicate --predicate '\{"kind":"command-exit-zero"/);
  for (const name of ['GSD_JSON_ERRORS=1', 'GSD_CHECK_QUERY_COMMAND', 'GSD_WORKSTREAM', 'NODE_DISABLE_COMPILE_CACHE', 'PHASE_DIR']) assert.ok(help.includes(name), name);
  assert.match(help, /\nMore: gsd-check help <command>\. .*README\.md and docs\//s);
  assert.ok(help.includes('  gsd-check help <command>\n'));
});

test('every kind of the kind table is summed up, naming each field of its schema', () => {
  assert.deepEqual(Object.keys(KIND_SUMMARIES).sort(), [...KINDS.keys()].sort());
  for (const [name, kind] of KINDS) {
    const summary = KIND_SUMMARIES[name]!.join(' ');
    for (const field of Object.keys(kind.schema.entries).filter((f) => f !== 'kind')) assert.ok(summary.includes(`"${field}"`), `${name}: "${field}"`);
  }
});

test("help <command>: its usage, every flag it takes and no other, its examples, and a docs page that exists", () => {
  for (const command of COMMANDS) {
    const help = commandHelp(command.name);
    assert.ok(help.startsWith(`Usage: gsd-check ${command.usage}\n`), command.name);
    for (const flag of FLAGS.filter((f) => f.group !== 'global')) {
      assert.equal(help.includes(`  --${flag.name}${flag.hint === undefined ? '' : ` ${flag.hint}`} `), takes(flag, command.name), `${command.name}: --${flag.name}`);
    }
    assert.ok(command.examples.length > 0, command.name);
    for (const example of command.examples) assert.ok(help.includes(`  # ${example.what}\n  ${example.command.split('\n')[0]}`), example.what);
    assert.ok(existsSync(join(ROOT, command.docs)), command.docs);
    assert.ok(help.endsWith(`More: ${command.docs}, in gsd-check's repository or npm package.\n`), command.name);
  }
});
