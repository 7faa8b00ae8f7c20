import assert from 'node:assert/strict';
import type { CliDeps, GatesDeps } from '../../src/commands/deps.ts';
import { ok } from '../../src/failure.ts';
import { isReadableDirectory } from '../../src/fs/entry.ts';
import { fakeRunner } from './fake-runner.ts';

// What a command needs from the world, as a test stands it in: nothing runs
// for real, no file is read, a warning fails the test unless `warn` is given.
const never = new AbortController().signal;

export function testDeps(dir: string, given: Partial<CliDeps> = {}): CliDeps {
  return {
    run: fakeRunner(),
    readFile: async () => ok(''),
    cwd: () => dir,
    home: undefined,
    uid: undefined,
    env: {},
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
