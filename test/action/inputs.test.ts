import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { ACTION_INPUTS, argvFromInputs, inputVariable } from '../../src/action/inputs.ts';
import { FLAGS, takes } from '../../src/cli/flag-table.ts';

test('an input for every flag of gates run but the five the Action sets itself, named as the flag, shaped as it takes values', () => {
  const flags = FLAGS.filter((flag) => takes(flag, 'gates run')).map((flag) => flag.name);
  const inputs = ACTION_INPUTS.map((input) => input.name);
  assert.deepEqual(
    flags.filter((name) => !inputs.includes(name)),
    ['raw', 'pick', 'json-errors', 'help', 'version'],
  );
  assert.deepEqual(
    inputs.filter((name) => !flags.includes(name)),
    [],
  );
  const shape = (name: string) => ACTION_INPUTS.find((input) => input.name === name)?.shape;
  assert.deepEqual(['point', 'capability', 'report', 'all-points', 'builtin', 'exit-code', 'phase-number', 'query-command'].map(shape), [
    'list',
    'list',
    'list',
    'switch',
    'switch',
    'switch',
    'value',
    'value',
  ]);
  assert.deepEqual(
    ACTION_INPUTS.filter((input) => input.default !== undefined).map((input) => [input.name, input.default]),
    [
      ['report', 'github'],
      ['exit-code', 'true'],
    ],
  );
  for (const input of ACTION_INPUTS) assert.ok(input.description.startsWith(`--${input.name}: `), input.name);
});

test('the runner\'s variables become flags: hyphens kept in the names, lists one a line, values joined with "=", switches true or false', () => {
  assert.equal(inputVariable('phase-number'), 'INPUT_PHASE-NUMBER');
  const env = {
    INPUT_POINT: 'plan:pre\n  ship:pre  \r\n\n',
    'INPUT_PHASE-NUMBER': ' 04 ',
    INPUT_BUILTIN: 'True',
    'INPUT_EXIT-CODE': 'false',
    'INPUT_ALL-POINTS': '',
    'INPUT_PHASE-REQ-IDS': '-x',
    INPUT_CAPABILITY: 'caps/a.json\ncaps/b.json',
  };
  assert.deepEqual(argvFromInputs(env), {
    ok: true,
    value: {
      argv: [
        'gates',
        'run',
        '--point=plan:pre',
        '--point=ship:pre',
        '--builtin',
        '--capability=caps/a.json',
        '--capability=caps/b.json',
        '--phase-number=04',
        '--phase-req-ids=-x',
        '--raw',
      ],
      annotated: false,
      exitOnBlock: false,
    },
  });
  assert.deepEqual(argvFromInputs({}), { ok: true, value: { argv: ['gates', 'run', '--raw'], annotated: false, exitOnBlock: false } });
  assert.deepEqual(argvFromInputs({ INPUT_REPORT: 'junit=a.xml\n github \n' }), {
    ok: true,
    value: { argv: ['gates', 'run', '--report=junit=a.xml', '--report=github', '--raw'], annotated: true, exitOnBlock: false },
  });
  assert.deepEqual(argvFromInputs({ 'INPUT_EXIT-CODE': 'TRUE' }), {
    ok: true,
    value: { argv: ['gates', 'run', '--exit-code', '--raw'], annotated: false, exitOnBlock: true },
  });
  // The step has no standard input: "-" for a file is refused, naming the input.
  for (const [variable, name] of [
    ['INPUT_HOOKS', 'hooks'],
    ['INPUT_CAPABILITY', 'capability'],
    ['INPUT_CONFIG', 'config'],
  ] as const) {
    assert.deepEqual(argvFromInputs({ [variable]: name === 'capability' ? 'a.json\n-' : '-' }), {
      ok: false,
      failure: { reason: 'usage', message: `the input ${name} is "-", standard input, which a step does not have; give a file`, issues: [] },
    });
  }
  assert.deepEqual(argvFromInputs({ INPUT_BUILTIN: 'yes' }), {
    ok: false,
    failure: { reason: 'usage', message: 'the input builtin is "yes"; it takes true or false', issues: [] },
  });
});

test('a blank line between the entries of a list input is no entry: an empty --report= would be refused as no report', () => {
  assert.deepEqual(argvFromInputs({ INPUT_REPORT: 'github\n\n  \r\njunit=x.xml' }), {
    ok: true,
    value: { argv: ['gates', 'run', '--report=github', '--report=junit=x.xml', '--raw'], annotated: true, exitOnBlock: false },
  });
  assert.deepEqual(argvFromInputs({ INPUT_POINT: 'plan:pre\n\nship:pre' }), {
    ok: true,
    value: { argv: ['gates', 'run', '--point=plan:pre', '--point=ship:pre', '--raw'], annotated: false, exitOnBlock: false },
  });
});

test('"-" is refused only where a file is expected: to an input that takes no file it is a value, as on the command line', () => {
  // A directory named "-", a requirement id, a shell command: none is standard input.
  for (const name of ['phase-dir', 'cwd', 'project-dir', 'phase-req-ids', 'query-command']) {
    assert.equal(ACTION_INPUTS.find((input) => input.name === name)?.file, false, name);
    assert.deepEqual(
      argvFromInputs({ [inputVariable(name)]: '-' }),
      { ok: true, value: { argv: ['gates', 'run', `--${name}=-`, '--raw'], annotated: false, exitOnBlock: false } },
      name,
    );
  }
  assert.deepEqual(
    ACTION_INPUTS.filter((input) => input.file).map((input) => input.name),
    ['capability', 'hooks', 'config'],
  );
});

test('a description that offers standard input (`-`) says the Action refuses it, and the Action does', () => {
  const speaking = ACTION_INPUTS.filter((input) => input.description.includes('standard input'));
  assert.deepEqual(
    speaking.map((input) => input.name),
    ['hooks'],
  );
  for (const input of speaking) {
    assert.match(input.description, /In the Action, a file only: the step has no standard input, so `-` is refused\.$/, input.name);
    assert.equal(argvFromInputs({ [inputVariable(input.name)]: '-' }).ok, false, input.name);
  }
});
