import assert from 'node:assert/strict';
import type { CliDeps, GatesDeps } from '../../src/commands/deps.ts';
import { ok, type Result } from '../../src/failure.ts';
import type { ReadInput } from '../../src/io/input.ts';
import { isReadableDirectory } from '../../src/fs/entry.ts';
import { fakeRunner } from './fake-runner.ts';
import type { GateContext } from '../../src/predicate/kind.ts';
import { gsdPaths } from '../../src/project/shown-path.ts';
import type { Runner } from '../../src/run/runner.ts';

// What a command needs from the world, as a test stands it in: nothing runs
// for real, no file is read, a warning fails the test unless `warn` is given.
const never = new AbortController().signal;

// A reader of files' bytes from one that answers their text, as a test writes it.
export const texts =
  (read: (path: string, label: string) => Promise<Result<string>>): ReadInput =>
  async (path, label) => {
    const text = await read(path, label);
    return text.ok ? ok(Buffer.from(text.value)) : text;
  };

export function testDeps(dir: string, given: Partial<CliDeps> = {}): CliDeps {
  return {
    run: fakeRunner(),
    readInput: texts(async () => ok('')),
    cwd: () => dir,
    home: undefined,
    uid: undefined,
    env: {},
    github: { actions: false, workspace: undefined, stepSummary: undefined, commit: undefined },
    canEnter: isReadableDirectory,
    signal: never,
    force: never,
    warn: (line) => assert.fail(`unexpected warning: ${line}`),
    ...given,
  };
}

// gates run's besides: no terminal, and no report may be written unless given.
export function testGatesDeps(dir: string, given: Partial<GatesDeps> = {}): GatesDeps {
  return {
    ...testDeps(dir, given),
    cpus: 2,
    fdLimit: undefined,
    progress: undefined,
    terminal: undefined,
    writeFile: () => assert.fail('no report is written here'),
    appendFile: () => assert.fail('no report is appended to here'),
    ...given,
  };
}

// A gate's context as a unit test stands it in: the project at `root`, no
// planning scope beyond GSD's default, `run` the only way out; `given`
// changes any of it.
export function testGateContext(root: string, run: Runner, given: Partial<GateContext> = {}): GateContext {
  return {
    projectRoot: root,
    paths: gsdPaths(root),
    env: {},
    planning: ok({ project: undefined, workstream: undefined }),
    killAfterMs: 1000,
    run,
    ...given,
  };
}
