/**
 * Cuts a stream of text into lines as chunks arrive, holding back the unfinished last line until
 * its newline (or the end) comes. A child's output arrives in arbitrary pieces, often mid-line.
 */
export interface LineSplitter {
  /** The lines completed by `chunk`, without their `\n` or `\r\n`. */
  push(chunk: string): string[];
  /** The last line if the text did not end with a newline; call once, at the end. */
  end(): string[];
}

export function createLineSplitter(): LineSplitter {
  let pending = '';
  return {
    push(chunk) {
      pending += chunk;
      const pieces = pending.split('\n');
      pending = pieces.pop() ?? '';
      return pieces.map(stripCarriageReturn);
    },
    end() {
      const last = pending;
      pending = '';
      return last === '' ? [] : [stripCarriageReturn(last)];
    },
  };
}

function stripCarriageReturn(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
