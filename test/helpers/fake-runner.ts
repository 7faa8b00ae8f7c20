// What the kinds, gates and commands get instead of src/run/runner.ts: a
// runner that starts nothing and answers each run with a result the test
// chose, keeping what it was asked.
import type { RunOptions, RunResult, Runner } from '../../src/run/runner.ts';
import { Stop } from '../../src/failure.ts';

// A run's result, described the short way: `interrupted` makes it a stop,
// `spawnError` a start that failed (an errno code, cwd-missing or
// cwd-denied), anything else how sh ended.
export interface RunResultSketch {
  readonly exitCode?: number | null;
  readonly signal?: NodeJS.Signals | null;
  readonly timedOut?: boolean;
  readonly interrupted?: NodeJS.Signals;
  readonly spawnError?: string;
  readonly durationMs?: number;
  readonly output?: RunResult['output'];
  readonly stdout?: RunResult['stdout'];
}

export function runResult(sketch: RunResultSketch = {}): RunResult {
  const ran = {
    durationMs: sketch.durationMs ?? 5,
    output: sketch.output ?? { text: '', stdoutBytes: 0, stderrBytes: 0, truncated: false },
    ...(sketch.stdout === undefined ? {} : { stdout: sketch.stdout }),
  };
  if (sketch.interrupted !== undefined) return { status: 'stopped', stop: new Stop(sketch.interrupted), killedBy: sketch.signal ?? null, ...ran };
  const code = sketch.spawnError;
  if (code !== undefined) {
    return { status: 'not-started', error: code === 'cwd-missing' || code === 'cwd-denied' ? { kind: code } : { kind: 'system', code }, ...ran };
  }
  return {
    status: 'ended',
    exitCode: sketch.exitCode === undefined ? 0 : sketch.exitCode,
    signal: sketch.signal ?? null,
    timedOut: sketch.timedOut ?? false,
    ...ran,
  };
}

// The result the short way again, every field present, for assertions.
export function sketchOf(result: RunResult) {
  return {
    exitCode: result.status === 'ended' ? result.exitCode : null,
    signal: result.status === 'ended' ? result.signal : result.status === 'stopped' ? result.killedBy : null,
    timedOut: result.status === 'ended' && result.timedOut,
    interrupted: result.status === 'stopped' ? result.stop.signal : null,
    spawnError: result.status === 'not-started' ? (result.error.kind === 'system' ? result.error.code : result.error.kind) : null,
    durationMs: result.durationMs,
    output: result.output,
    stdout: result.stdout,
  };
}

// A runner answering every run with `answer` (a sketch, or a function of the
// options), pushing each run's options onto `seen`.
export function fakeRunner(answer: RunResultSketch | ((options: RunOptions) => RunResultSketch) = {}, seen: RunOptions[] = []): Runner {
  return async (options) => {
    seen.push(options);
    return runResult(typeof answer === 'function' ? answer(options) : answer);
  };
}
