/**
 * Finds the places in a model reply where a JSON object or array may be, in one linear pass.
 *
 * Openers and closers are matched with a stack. Inside a candidate, double-quoted strings are
 * skipped so braces in string values do not count; a string that reaches a line break was a prose
 * quotation mark (JSON strings hold no raw line breaks) and stops being treated as a string. A
 * closer that does not match the innermost opener is prose and ignored. Every opener still open at
 * the end is reported, so a reply cut off mid-value can be repaired.
 */

export interface JsonSpan {
  start: number;
  /** Exclusive. */
  end: number;
}

export interface JsonScan {
  /** Every balanced `{…}` or `[…]`, nested ones included, ordered by start (outer before inner). */
  spans: JsonSpan[];
  /** Positions of openers never closed (a truncated value starts at one of them), in order. */
  unclosedOpeners: number[];
}

const CLOSER_OF: Readonly<Record<string, string>> = { '{': '}', '[': ']' };

export function scanJsonCandidates(text: string): JsonScan {
  const stack: Array<{ opener: string; position: number }> = [];
  const spans: JsonSpan[] = [];
  let stringStart = -1;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index] as string;
    if (stringStart !== -1) {
      if (character === '\\') index += 1;
      else if (character === '"') stringStart = -1;
      else if (character === '\n') stringStart = -1;
      continue;
    }
    if (character === '"') {
      if (stack.length > 0) stringStart = index;
      continue;
    }
    if (character === '{' || character === '[') {
      stack.push({ opener: character, position: index });
      continue;
    }
    if (character === '}' || character === ']') {
      const top = stack[stack.length - 1];
      if (top !== undefined && CLOSER_OF[top.opener] === character) {
        stack.pop();
        spans.push({ start: top.position, end: index + 1 });
      }
    }
  }
  spans.sort((left, right) => left.start - right.start);
  return { spans, unclosedOpeners: stack.map((entry) => entry.position) };
}

/** True when the text at `position` starts like a JSON value rather than a prose brace (`{x}`). */
export function looksLikeJsonStart(text: string, position: number): boolean {
  const rest = text.slice(position + 1, position + 64).trimStart();
  if (text[position] === '{') return rest.startsWith('"') || rest.startsWith('}') || rest === '';
  return /^(?:[{["\]\d-]|true|false|null|$)/.test(rest);
}
