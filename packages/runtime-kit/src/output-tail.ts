/**
 * Keeps the last `maxBytes` bytes of a stream. The tail rather than the head, because the end of
 * an agent's output carries what matters most: its final answer and the error that stopped it.
 */
export class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = false;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    if (this.maxBytes === 0) {
      if (chunk.length > 0) this.dropped = true;
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.maxBytes) {
      const first = this.chunks[0] as Buffer;
      const excess = this.size - this.maxBytes;
      this.dropped = true;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
  }

  /** Whether anything was dropped from the front. */
  get truncated(): boolean {
    return this.dropped;
  }

  /** The kept bytes as UTF-8; a character cut in half at the front is left out rather than garbled. */
  text(): string {
    let bytes = Buffer.concat(this.chunks);
    if (this.dropped) {
      let start = 0;
      // UTF-8 continuation bytes look like 10xxxxxx; at most three follow a character's first byte.
      while (start < bytes.length && start < 3 && ((bytes[start] as number) & 0xc0) === 0x80) start++;
      bytes = bytes.subarray(start);
    }
    return bytes.toString('utf8');
  }
}
