import assert from 'node:assert/strict';
import fc from 'fast-check';
import { test } from '../helpers/bounded.ts';
import { commandData, commandProperty, inertLog } from '../../src/text/github-log.ts';
import { workflowCommands } from '../helpers/workflow-commands.ts';

const RUNS = Number(process.env.GSD_CHECK_FUZZ_RUNS ?? 300);

// Text an attacker writes into a value gsd-check prints: pieces of both
// command forms, blanks the runner trims, every line end it splits at.
const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '::',
        '##[',
        ']',
        '::set-output name=approved::yes',
        '##[set-output name=approved;]yes',
        '::add-mask::',
        '##[stop-commands]tok',
        '::tok::',
        '::error file=a,line=1::x',
        ' ',
        '\t',
        '\u00a0',
        '\u0085',
        '\ufeff',
        '\n',
        '\r',
        '\r\n',
        '%',
        '%0A',
        ',',
        ':',
        ';',
        '=',
      ),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

test('the log the runner reads: nothing in it is a command once inertLog made it so, whatever it held', () => {
  fc.assert(
    fc.property(hostile, (text) => {
      assert.deepEqual(workflowCommands(inertLog(text)), [], JSON.stringify(text));
    }),
    { numRuns: RUNS * 3 },
  );
});

test('the commands an attack would run, before: the model of the runner sees them', () => {
  assert.deepEqual(
    workflowCommands('Frontmatter field "threats_open" is ##[set-output name=approved;]yes, expected 0').map((c) => [c.command, c.properties, c.data]),
    [['set-output', { name: 'approved' }, 'yes, expected 0']],
  );
  assert.deepEqual(
    workflowCommands('  ::add-mask::x').map((c) => c.command),
    ['add-mask'],
  );
  // A stop hides every command until its token: the annotations after it would be lost.
  assert.deepEqual(
    workflowCommands('::stop-commands::tok\n::error::lost\n::tok::\n::error::seen').map((c) => c.command),
    ['stop-commands', 'tok', 'error'],
  );
});

test('inertLog breaks ##[ as a JSON escape and a leading :: with an escaped first colon; it changes nothing else', () => {
  assert.equal(inertLog('a ##[set-output name=x;]y'), 'a #\\u0023[set-output name=x;]y');
  assert.equal(inertLog(' \t::add-mask::x\r::b\r\n c'), ' \t\\u003a:add-mask::x\r\\u003a:b\r\n c');
  assert.equal(inertLog('gsd-check: a::b ## [ #[ #'), 'gsd-check: a::b ## [ #[ #');
  // A JSON envelope stays the same JSON: the escape is one inside its strings.
  const envelope = JSON.stringify({ block: true, message: '##[set-output name=approved;]yes', details: { x: ':: y' } }, null, 2);
  assert.deepEqual(JSON.parse(inertLog(envelope)), JSON.parse(envelope));
  fc.assert(
    fc.property(fc.jsonValue(), hostile, (value, text) => {
      const json = JSON.stringify({ value, text });
      assert.deepEqual(JSON.parse(inertLog(json)), JSON.parse(json));
    }),
    { numRuns: RUNS },
  );
});

test('a command gsd-check means is read as that one command, its data and properties as given, shown safe', () => {
  fc.assert(
    fc.property(hostile, hostile, (title, message) => {
      const found = workflowCommands(`::error file=${commandProperty('a.md')},line=2,title=${commandProperty(title)}::${commandData(message)}\n`);
      assert.equal(found.length, 1, JSON.stringify([title, message]));
      assert.deepEqual([found[0]!.command, found[0]!.properties.file, found[0]!.properties.line], ['error', 'a.md', '2']);
      // What a reader sees: the text, its lines kept, every other control
      // character an escape, ##[ broken.
      for (const shown of [found[0]!.data, found[0]!.properties.title ?? ''])
        assert.doesNotMatch(shown, /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]|##\[/);
    }),
    { numRuns: RUNS },
  );
  assert.equal(commandData('100% of 2:\r\nthreats'), '100%25 of 2:%0D%0Athreats');
  assert.equal(commandProperty('ship:pre a,b'), 'ship%3Apre a%2Cb');
  assert.equal(commandData('x ##[add-mask]y \u001b[2J'), 'x #\\u0023[add-mask]y \\x1b[2J');
});
