import { StringDecoder } from 'node:string_decoder';
import type { ChildPipe } from './child.ts';
import type { Time } from './time.ts';

// A command's output while it runs: the pipes read into a ring of the last
// bytes (the tail) and, for a query's answer, the first bytes of stdout; and
// the status the runner's sh reports on a pipe of its own.

export const TAIL_BYTES = 64 * 1024;
// After sh exits, how long a background process may keep the pipes open
// before reading stops: with the group's 200 ms grace that follows, well
// under the 500 ms a caller may wait.
const DRAIN_MS = 100;
// The status pipe is held by the runner's sh alone (the command's sh has it
// closed), so it ends when that sh does; only a process that took the
// descriptor could hold it on. It is waited for past the output's drain,
// since its report decides the verdict, and a loaded machine can be late to
// read it: a pass read as a death would be red where the loop goes on.
const STATUS_DRAIN_MS = 5000;

export interface OutputSummary {
  readonly text: string;
  readonly stdoutBytes: number;
  readonly stderrBytes: number;
  readonly truncated: boolean;
}

// The report is a number of three digits at most; a longer one is no report.
const REPORT_BYTES = 8;

// A command's stdout and stderr: the tail of both in arrival order, and with
// `keepStdout` the head of stdout, read until the pipes close or the drain
// after sh's exit is over.
export class CommandOutput {
  private readonly tail = new TailBuffer(TAIL_BYTES);
  private readonly head: HeadBuffer | undefined;
  private readonly report = new HeadBuffer(REPORT_BYTES);
  private statusEnded = false;
  private onStatusEnded: (() => void) | undefined;
  private pipes: readonly ChildPipe[] = [];
  private endedPipes = 0;
  private onEnded: (() => void) | undefined;

  constructor(keepStdout: number | undefined) {
    this.head = keepStdout === undefined ? undefined : new HeadBuffer(keepStdout);
  }

  read(stdout: ChildPipe, stderr: ChildPipe, status: ChildPipe): void {
    this.pipes = [stdout, stderr, status];
    const onEnd = (): void => {
      if (++this.endedPipes === this.pipes.length) this.onEnded?.();
    };
    stdout.read((bytes) => {
      this.tail.push(0, bytes);
      this.head?.push(bytes);
    }, onEnd);
    stderr.read((bytes) => this.tail.push(1, bytes), onEnd);
    status.read(
      (bytes) => this.report.push(bytes),
      () => {
        this.statusEnded = true;
        this.onStatusEnded?.();
        onEnd();
      },
    );
  }

  // What the runner's sh reported of the command's status, once its pipe
  // has closed: its text, or undefined when nothing whole was reported (the
  // sh was killed first, or the report did not end by the drain's end).
  reportedStatus(): string | undefined {
    return this.report.complete && this.statusEnded ? this.report.text() : undefined;
  }

  // Once sh has exited: `done` when the pipes have closed, or when the drain
  // is over while a background process still holds an output pipe, and the
  // status pipe has closed or its longer wait is over. Reading stops then:
  // the verdict is sh's.
  drain(time: Time, done: () => void): void {
    if (this.endedPipes === this.pipes.length) return done();
    let outputOver = false;
    const finish = (): void => {
      cancelOutput();
      cancelStatus();
      this.onEnded = undefined;
      this.onStatusEnded = undefined;
      for (const pipe of this.pipes) pipe.close();
      done();
    };
    const cancelOutput = time.after(DRAIN_MS, () => {
      outputOver = true;
      if (this.statusEnded) finish();
    });
    const cancelStatus = this.statusEnded ? () => {} : time.after(STATUS_DRAIN_MS, finish);
    this.onStatusEnded = () => {
      cancelStatus();
      if (outputOver) finish();
    };
    this.onEnded = finish;
  }

  summary(): OutputSummary {
    return { text: this.tail.text(), stdoutBytes: this.tail.seen[0], stderrBytes: this.tail.seen[1], truncated: this.tail.truncated };
  }

  // With `keepStdout`: the head of stdout, and whether it is all of it.
  stdout(): { readonly text: string; readonly complete: boolean } | undefined {
    return this.head === undefined ? undefined : { text: this.head.text(), complete: this.head.complete };
  }
}

// The first `capacity` bytes of one stream, copied out of each read (the
// reader reuses its buffer), and whether anything past them was dropped. For
// output that is an answer to parse (a query's JSON), not a log to tail.
export class HeadBuffer {
  private readonly bytes: Buffer;
  private size = 0;
  private over = false;

  constructor(readonly capacity: number) {
    this.bytes = Buffer.alloc(capacity);
  }

  push(chunk: Uint8Array): void {
    const room = this.capacity - this.size;
    if (chunk.length > room) this.over = true;
    const take = Math.min(room, chunk.length);
    if (take > 0) {
      this.bytes.set(chunk.subarray(0, take), this.size);
      this.size += take;
    }
  }

  get complete(): boolean {
    return !this.over;
  }

  text(): string {
    return this.bytes.toString('utf8', 0, this.size);
  }
}

type Stream = 0 | 1; // 0 = stdout, 1 = stderr

// The last `capacity` bytes of a command's combined output, in the order the
// reads arrived. Bytes are copied into one preallocated ring, so memory stays
// flat however much the command prints, and Node's read buffers become garbage
// at once. Decoding waits until the end, with one decoder per stream, so a
// character split across two reads stays whole even when the other stream's
// output arrived in between.
export class TailBuffer {
  readonly seen: [number, number] = [0, 0];
  private readonly ring: Buffer;
  private start = 0;
  private size = 0;
  // Runs of consecutive bytes from one stream, oldest first, from index `head`.
  private readonly runs: { stream: Stream; length: number }[] = [];
  private head = 0;
  private readonly dropped: [boolean, boolean] = [false, false];

  constructor(readonly capacity: number) {
    this.ring = Buffer.allocUnsafe(capacity);
  }

  get truncated(): boolean {
    return this.dropped[0] || this.dropped[1];
  }

  push(stream: Stream, chunk: Uint8Array): void {
    const n = chunk.length;
    if (n === 0) return;
    this.seen[stream] += n;
    if (n >= this.capacity) {
      for (let i = this.head; i < this.runs.length; i++) this.dropped[this.runs[i]!.stream] = true;
      if (n > this.capacity) this.dropped[stream] = true;
      this.ring.set(chunk.subarray(n - this.capacity));
      this.start = 0;
      this.size = this.capacity;
      this.runs.length = 0;
      this.head = 0;
      this.runs.push({ stream, length: this.capacity });
      return;
    }
    const overflow = this.size + n - this.capacity;
    if (overflow > 0) this.dropFront(overflow);
    const end = (this.start + this.size) % this.capacity;
    const first = Math.min(n, this.capacity - end);
    this.ring.set(chunk.subarray(0, first), end);
    if (first < n) this.ring.set(chunk.subarray(first), 0);
    this.size += n;
    const last = this.runs[this.runs.length - 1];
    // n < capacity, so dropFront left part of a run: `last` is live.
    if (last !== undefined && last.stream === stream) last.length += n;
    else this.runs.push({ stream, length: n });
  }

  text(): string {
    const decoders = [new StringDecoder('utf8'), new StringDecoder('utf8')] as const;
    const started = [false, false];
    let out = '';
    let offset = this.start;
    for (let i = this.head; i < this.runs.length; i++) {
      const { stream, length } = this.runs[i]!;
      let bytes = this.read(offset, length);
      offset = (offset + length) % this.capacity;
      if (!started[stream]) {
        started[stream] = true;
        // Where the front of a stream was dropped, its first kept bytes may be
        // the tail of a character: skip them rather than show U+FFFD.
        if (this.dropped[stream]) bytes = bytes.subarray(leadingContinuationBytes(bytes));
      }
      out += decoders[stream].write(bytes);
    }
    return out + decoders[0].end() + decoders[1].end();
  }

  private read(offset: number, length: number): Buffer {
    const first = Math.min(length, this.capacity - offset);
    if (first === length) return this.ring.subarray(offset, offset + length);
    return Buffer.concat([this.ring.subarray(offset), this.ring.subarray(0, length - first)]);
  }

  private dropFront(count: number): void {
    this.start = (this.start + count) % this.capacity;
    this.size -= count;
    while (count > 0) {
      const run = this.runs[this.head]!;
      const take = Math.min(count, run.length);
      run.length -= take;
      count -= take;
      this.dropped[run.stream] = true;
      if (run.length === 0) this.head++;
    }
    // Forget spent runs now and then, so the list stays as long as what is kept.
    if (this.head > 1024 && this.head * 2 > this.runs.length) {
      this.runs.splice(0, this.head);
      this.head = 0;
    }
  }
}

function leadingContinuationBytes(bytes: Uint8Array): number {
  let i = 0;
  while (i < 3 && i < bytes.length && (bytes[i]! & 0xc0) === 0x80) i++;
  return i;
}
