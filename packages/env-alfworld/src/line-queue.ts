/**
 * Lines to write to a child's stdin, handed to runtime-kit's `runProcess` as an async iterable:
 * each pushed line is yielded as soon as the writer asks for it, and `end` closes stdin once the
 * lines before it are written.
 */
export class LineQueue implements AsyncIterable<string> {
  private readonly lines: string[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  push(line: string): void {
    if (this.ended) return;
    this.lines.push(line);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<string> {
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) {
        yield line;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }
}
