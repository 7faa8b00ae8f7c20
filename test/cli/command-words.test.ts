import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { parseCommandLine } from '../../src/cli/command-line.ts';
import { findCommand } from '../../src/cli/command-words.ts';
import { options, P, usage } from '../helpers/command-line.ts';

test("GSD's query prefix: before a command, the command", () => {
  assert.equal(options(['query', 'check.predicate', '--predicate', P])?.predicate, P);
  assert.equal(options(['query', 'check', 'predicate', '--predicate', P])?.predicate, P);
  assert.equal(options(['--raw', 'query', '--predicate', P, 'check', 'predicate'])?.raw, true);
  assert.equal(parseCommandLine(['query', 'gates', 'run', '--point', 'ship:pre', '--builtin']).ok, true);
  assert.equal(usage(['query', 'query', 'check', 'predicate', '--predicate', P]), 'unknown command "query"; try: gsd-check check predicate, gates run, validate, schema or completion');
  assert.equal(usage(['query']), 'missing command; try: gsd-check check predicate --predicate <json>');
  assert.equal(usage(['check', 'query', 'predicate']), 'unknown subcommand "check query"; try: check predicate');
});

test('help <command>, or a command with --help, is that command\'s help; help alone is --help', () => {
  const help = (...argv: string[]) => parseCommandLine(argv);
  assert.deepEqual(help('help'), { ok: true, value: { action: 'help' } });
  assert.deepEqual(help('help', 'gates', 'run'), { ok: true, value: { action: 'help', command: 'gates run' } });
  assert.deepEqual(help('help', 'gates'), { ok: true, value: { action: 'help', command: 'gates run' } });
  assert.deepEqual(help('help', 'check.predicate'), { ok: true, value: { action: 'help', command: 'check predicate' } });
  assert.deepEqual(help('validate', 'a.json', '--help'), { ok: true, value: { action: 'help', command: 'validate' } });
  assert.equal(usage(['help', 'nope']), 'help: no command "nope"; one of: check predicate, gates run, validate, schema, completion, help');
  assert.equal(usage(['help', 'gates', 'run', 'now']), 'help: no command "gates run now"; one of: check predicate, gates run, validate, schema, completion, help');
});

test('a command found by its words, an alias, after GSD\'s query; a typo of its first word is named', () => {
  const found = (words: string[]) => {
    const result = findCommand(words);
    return result.ok ? [result.value.command, result.value.operands] : result.failure.message.replace(/ \(see gsd-check --help\)$/, '');
  };
  assert.deepEqual(found(['check', 'predicate', 'x']), ['check predicate', ['x']]);
  assert.deepEqual(found(['query', 'check.predicate']), ['check predicate', []]);
  assert.deepEqual(found(['validate', 'a', 'b']), ['validate', ['a', 'b']]);
  assert.equal(found(['chek']), 'unknown command "chek"; did you mean gsd-check check predicate?');
  assert.equal(found(['Gates', 'run']), 'unknown command "Gates"; did you mean gsd-check gates run?');
  assert.equal(found(['schemas']), 'unknown command "schemas"; did you mean gsd-check schema?');
  assert.equal(found(['deploy']), 'unknown command "deploy"; try: gsd-check check predicate, gates run, validate, schema or completion');
});
