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
