/**
 * Where a text stops being JSON, as a character offset. JSON.parse says where only for some
 * errors (Node 20 names the position of a missing property name but not of a stray comma), and a
 * corrupt transcript should be reported at the line that broke, so the text is walked once more —
 * only after JSON.parse has refused it — with a scanner that checks the grammar and nothing else.
 * It keeps an explicit stack, so no nesting depth can overflow the call stack.
 */

type Expected = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'comma-or-close' | 'end';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const LITERAL = /true|false|null/y;

function matchAt(pattern: RegExp, text: string, offset: number): number | undefined {
  pattern.lastIndex = offset;
  return pattern.exec(text) === null ? undefined : pattern.lastIndex;
}

/** The offset of the first character that breaks the JSON grammar, or undefined when `text` is JSON. */
export function jsonSyntaxErrorOffset(text: string): number | undefined {
  const containers: ('object' | 'array')[] = [];
  let expected: Expected = 'value';
  let offset = 0;
  const afterValue = (): Expected => (containers.length === 0 ? 'end' : 'comma-or-close');
  for (;;) {
    while (offset < text.length && ' \t\n\r'.includes(text.charAt(offset))) offset += 1;
    if (offset >= text.length) return expected === 'end' ? undefined : offset;
    const character = text.charAt(offset);
    const open = containers.at(-1);
    if ((expected === 'key-or-close' && character === '}') || (expected === 'value-or-close' && character === ']')) {
      containers.pop();
      offset += 1;
      expected = afterValue();
      continue;
    }
    if (expected === 'comma-or-close') {
      if (character === ',') expected = open === 'object' ? 'key' : 'value';
      else if ((character === '}' && open === 'object') || (character === ']' && open === 'array')) {
        containers.pop();
        expected = afterValue();
      } else return offset;
      offset += 1;
      continue;
    }
    if (expected === 'colon') {
      if (character !== ':') return offset;
      offset += 1;
      expected = 'value';
      continue;
    }
    if (expected === 'end') return offset;
    if (expected === 'key' || expected === 'key-or-close') {
      const end = character === '"' ? matchAt(STRING, text, offset) : undefined;
      if (end === undefined) return offset;
      offset = end;
      expected = 'colon';
      continue;
    }
    // A value is expected.
    if (character === '{' || character === '[') {
      containers.push(character === '{' ? 'object' : 'array');
      offset += 1;
      expected = character === '{' ? 'key-or-close' : 'value-or-close';
      continue;
    }
    const end = character === '"' ? matchAt(STRING, text, offset) : (matchAt(NUMBER, text, offset) ?? matchAt(LITERAL, text, offset));
    if (end === undefined) return offset;
    offset = end;
    expected = afterValue();
  }
}
