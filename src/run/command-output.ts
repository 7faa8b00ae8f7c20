import type { Readable } from 'node:stream';
import { HeadBuffer } from './head-buffer.ts';
import type { PipeReader } from './pipe-reader.ts';
import { TailBuffer } from './tail-buffer.ts';
import type { Time } from './time.ts';

const TAIL_BYTES = 64 * 1024;
// After sh exits, how long a background process may keep the pipes open
// before reading stops: with the group's 200 ms grace that follows, well
// under the 500 ms a caller may wait.
const DRAIN_MS = 100;

export interface OutputSummary {
  readonly text: string;
  readonly stdoutBytes: number;
  readonly stderrBytes: number;
  readonly truncated: boolean;
}

// A command's stdout and stderr: the tail of both in arrival order, and with
// `keepStdout` the head of stdout, read until both pipes close or the drain
// after sh's exit is over.
export class CommandOutput {
  private readonly tail = new TailBuffer(TAIL_BYTES);
  private readonly head: HeadBuffer | undefined;
  private pipes: readonly Readable[] = [];
  private closedPipes = 0;
  private onClosed: (() => void) | undefined;

  constructor(keepStdout: number | undefined) {
    this.head = keepStdout === undefined ? undefined : new HeadBuffer(keepStdout);
  }

  read(stdout: Readable, stderr: Readable, readPipe: PipeReader): void {
    this.pipes = [
      readPipe(stdout, (bytes) => {
        this.tail.push(0, bytes);
        this.head?.push(bytes);
      }),
      readPipe(stderr, (bytes) => this.tail.push(1, bytes)),
    ];
    for (const pipe of this.pipes) {
      pipe.once('close', () => {
        if (++this.closedPipes === this.pipes.length) this.onClosed?.();
      });
      pipe.on('error', ignore);
    }
  }

  // Once sh has exited: `done` when both pipes have closed, or when the drain
  // is over while a background process still holds one. Reading stops then:
  // the verdict is sh's.
  drain(time: Time, done: () => void): void {
    if (this.closedPipes === this.pipes.length) return done();
    const cancel = time.after(DRAIN_MS, () => {
      this.onClosed = undefined;
      for (const pipe of this.pipes) pipe.destroy();
      done();
    });
    this.onClosed = () => {
      cancel();
      done();
    };
  }

  summary(): OutputSummary {
    return { text: this.tail.text(), stdoutBytes: this.tail.seen[0], stderrBytes: this.tail.seen[1], truncated: this.tail.truncated };
  }

  // With `keepStdout`: the head of stdout, and whether it is all of it.
  stdout(): { readonly text: string; readonly complete: boolean } | undefined {
    return this.head === undefined ? undefined : { text: this.head.text(), complete: this.head.complete };
  }
}

function ignore(): void {}
