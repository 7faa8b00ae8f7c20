import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { COMMANDS, isShell } from '../../src/cli/command-table.ts';
import { FLAGS, takes } from '../../src/cli/flag-table.ts';
import { commandHelp, helpText, completionScript, schemaText } from '../../src/cli/help.ts';
import { KINDS } from '../../src/kinds/table.ts';
import { ROOT, cli } from '../helpers/support.ts';

test('--help teaches: the kinds, examples, the environment that matters, and where the docs are', () => {
  const help = helpText();
  for (const name of KINDS.keys()) assert.ok(help.includes(`\n  ${name} `) || help.includes(`\n  ${name}\n`), name);
  assert.match(help, /\nExamples:\n {2}# a command gate; exit 1 when it blocks\n {2}gsd-check check predicate --predicate '\{"kind":"command-exit-zero"/);
  for (const name of ['GSD_JSON_ERRORS=1', 'GSD_CHECK_QUERY_COMMAND', 'GSD_WORKSTREAM', 'NODE_DISABLE_COMPILE_CACHE', 'PHASE_DIR'])
    assert.ok(help.includes(name), name);
  assert.match(help, /\nMore: gsd-check help <command>\. .*README\.md and docs\//s);
  assert.ok(help.includes('  gsd-check help <command>\n'));
});

test('every kind of the kind table is summed up in --help, naming each field of its schema', () => {
  const help = helpText();
  for (const [name, kind] of KINDS) {
    assert.ok(help.includes(kind.summary.join(`\n${' '.repeat(29)}`)), name);
    const summary = kind.summary.join(' ');
    for (const field of Object.keys(kind.schema.entries).filter((f) => f !== 'kind')) assert.ok(summary.includes(`"${field}"`), `${name}: "${field}"`);
  }
});

test('help <command>: its usage, every flag it takes and no other, its examples, and a docs page that exists', () => {
  for (const command of COMMANDS) {
    const help = commandHelp(command.name);
    assert.ok(help.startsWith(`Usage: gsd-check ${command.usage}\n`), command.name);
    for (const flag of FLAGS.filter((f) => f.group !== 'global')) {
      assert.equal(
        help.includes(`  --${flag.name}${flag.hint === undefined ? '' : ` ${flag.hint}`} `),
        takes(flag, command.name),
        `${command.name}: --${flag.name}`,
      );
    }
    assert.ok(command.examples.length > 0, command.name);
    for (const example of command.examples) assert.ok(help.includes(`  # ${example.what}\n  ${example.command.split('\n')[0]}`), example.what);
    assert.ok(existsSync(join(ROOT, command.docs)), command.docs);
    assert.ok(help.endsWith(`More: ${command.docs}, in gsd-check's repository or npm package.\n`), command.name);
  }
});

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
  // A value flag before the command: its value is not the command either.
  assert.deepEqual(offered('gsd-check', '--cwd', 'x', 'check', ''), ['predicate']);
  // Right after a command of one word, its flags: no subcommand is offered.
  assert.deepEqual(offered('gsd-check', 'validate', '--j'), ['--json', '--json-errors']);
});

test('only the shells there is a script for', () => {
  assert.equal(isShell('bash'), true);
  assert.equal(isShell('zsh'), false);
});

test('gsd-check completion bash prints the script, exit 0', async () => {
  const result = await cli(['completion', 'bash']);
  assert.deepEqual(result, { ...result, status: 0, stdout: completionScript('bash'), stderr: '' });
});

test('every schema under schemas/, byte for byte, by its name; the names when none is given', () => {
  const files = readdirSync(join(ROOT, 'schemas')).filter((name) => name.endsWith('.schema.json'));
  const names = files.map((file) => file.slice(0, -'.schema.json'.length));
  const listed = schemaText(undefined);
  assert.ok(listed.ok);
  assert.deepEqual(listed.value.trimEnd().split('\n').sort(), names.sort());
  for (const name of names) {
    assert.deepEqual(schemaText(name), { ok: true, value: readFileSync(join(ROOT, 'schemas', `${name}.schema.json`), 'utf8') }, name);
  }
});

test('a name that is no schema is a usage error naming the ones there are', () => {
  for (const name of ['gates', '', 'constructor', '__proto__']) {
    const result = schemaText(name);
    assert.deepEqual(!result.ok && [result.failure.reason, result.failure.message], [
      'usage',
      `no schema named ${JSON.stringify(name)}; one of: predicate, gate, capability, render-hooks (see gsd-check --help)`,
    ]);
  }
});
