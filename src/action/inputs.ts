import { fail, ok, type Result } from '../failure.ts';
import type { Flag } from '../cli/flag.ts';
import { FLAGS, takes } from '../cli/flag-table.ts';
import { closest } from '../text/suggest.ts';

// The GitHub Action's inputs: one per flag of `gates run`, named as the flag
// is, so that a workflow reads like the command line. Written nowhere else:
// action.yml is generated from this list (metadata.ts), and the entry turns
// the runner's INPUT_* variables back into those flags here.

// Flags the Action sets itself or has no use for: it reads the envelope as
// JSON (--raw), gives every field as an output (--pick), and its log is read
// by people (--json-errors); help and version print no verdict.
const NOT_INPUTS: ReadonlySet<string> = new Set(['raw', 'pick', 'json-errors', 'help', 'version']);

// What the Action does unless told otherwise: a halt fails the step, and
// the gates are annotated and summarised where GitHub shows them.
const DEFAULTS: Readonly<Record<string, string>> = { 'exit-code': 'true', report: 'github' };

interface ActionInput {
  readonly name: string;
  // A switch takes true or false; a list one value a line, each given as
  // the flag once; a value is given once.
  readonly shape: 'switch' | 'list' | 'value';
  // A file's path: never "-", since the step has no standard input.
  readonly file: boolean;
  readonly description: string;
  readonly default?: string;
}

const shapeOf = (flag: Flag): ActionInput['shape'] => (flag.hint === undefined ? 'switch' : flag.repeatable === true ? 'list' : 'value');

// A flag whose value may be `-` (its hint says so, `<file|->`) reads standard
// input on the command line; its input's description says the Action does not.
const NO_STDIN = ' In the Action, a file only: the step has no standard input, so `-` is refused.';

export const ACTION_INPUTS: readonly ActionInput[] = FLAGS.filter((flag) => takes(flag, 'gates run') && !NOT_INPUTS.has(flag.name)).map((flag) => {
  const value = DEFAULTS[flag.name];
  const file = flag.complete === 'file';
  const description = `--${flag.name}: ${flag.doc.meaning}.${file && flag.hint?.endsWith('|->') === true ? NO_STDIN : ''}`;
  return { name: flag.name, shape: shapeOf(flag), file, description, ...(value === undefined ? {} : { default: value }) };
});

// The runner's name for an input's variable: INPUT_ and the name in upper
// case, hyphens kept (INPUT_PHASE-NUMBER).
export const inputVariable = (name: string): string => `INPUT_${name.toUpperCase()}`;

// The booleans @actions/core's getBooleanInput takes (YAML 1.2 core).
const TRUE = ['true', 'True', 'TRUE'];
const FALSE = ['false', 'False', 'FALSE'];

// What the step runs: `gates run` and the flags the inputs set, each value
// joined with "=" so that one starting with "-" stays a value; whether
// gsd-check annotates the run itself (report includes github); and whether a
// halt is to fail the step (exit-code). An input the runner passes empty is
// not given; values are trimmed, as @actions/core trims them.
interface StepRun {
  readonly argv: readonly string[];
  readonly annotated: boolean;
  readonly exitOnBlock: boolean;
}

// The runner passes every `with:` key as INPUT_<KEY>, declared or not, and
// only warns of one action.yml does not declare: a misspelt
// `current-phse: true` would run the gates of no phase. So an input the
// Action does not have fails the step, naming it and the input meant.
function undeclaredInput(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const declared = new Set(ACTION_INPUTS.map((input) => inputVariable(input.name)));
  const stray = Object.keys(env).find((name) => name.startsWith('INPUT_') && !declared.has(name));
  if (stray === undefined) return undefined;
  const name = stray.slice('INPUT_'.length).toLowerCase();
  const meant = closest(
    name,
    ACTION_INPUTS.map((input) => input.name),
  );
  return `the input ${JSON.stringify(name)} is not one of this Action's; ${meant === undefined ? `its inputs are ${ACTION_INPUTS.map((input) => input.name).join(', ')}` : `did you mean ${meant}?`}`;
}

export function argvFromInputs(env: Readonly<Record<string, string | undefined>>): Result<StepRun> {
  const stray = undeclaredInput(env);
  if (stray !== undefined) return fail('usage', stray);
  const argv = ['gates', 'run'];
  let annotated = false;
  let exitOnBlock = false;
  for (const input of ACTION_INPUTS) {
    const given = (env[inputVariable(input.name)] ?? '').trim();
    if (given === '') continue;
    if (input.shape === 'switch') {
      if (TRUE.includes(given)) {
        argv.push(`--${input.name}`);
        if (input.name === 'exit-code') exitOnBlock = true;
      } else if (!FALSE.includes(given)) return fail('usage', `the input ${input.name} is ${JSON.stringify(given)}; it takes true or false`);
      continue;
    }
    const values =
      input.shape === 'list'
        ? given
            .split(/\r?\n/)
            .map((line) => line.trim())
            .filter((line) => line !== '')
        : [given];
    for (const value of values) {
      if (input.file && value === '-') return fail('usage', `the input ${input.name} is "-", standard input, which a step does not have; give a file`);
      if (input.name === 'report' && value === 'github') annotated = true;
      argv.push(`--${input.name}=${value}`);
    }
  }
  return ok({ argv: [...argv, '--raw'], annotated, exitOnBlock });
}
