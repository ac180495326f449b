/**
 * The gold answers of a DocVQA item arrive in several forms: a list of strings (our materialised
 * format), a JSON list string (`'["1/8/93"]'`), a Python list literal as the question CSVs hold it
 * (`"['1/8/93', '1/8/93']"`), an object with an `answers`, `ground_truth` or `answer` key, or a list
 * of objects with a `text`, `answer` or `value` key. `parseGoldAnswers` flattens all of them into
 * a list of strings.
 */

/** Thrown by `parsePythonLiteral` for text it cannot read. */
export class PythonLiteralSyntaxError extends Error {
  override readonly name = 'PythonLiteralSyntaxError';
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  a: '\x07',
  '\n': '',
};

/**
 * Reads the subset of Python literals that answer cells use: strings (single or double quotes,
 * triple quotes, `r`/`u` prefixes, the usual escapes, adjacent strings joined), numbers, `True`,
 * `False`, `None`, lists, tuples and dicts (nested). Anything else is a `PythonLiteralSyntaxError`.
 */
export function parsePythonLiteral(text: string): unknown {
  let position = 0;
  const fail = (what: string): never => {
    throw new PythonLiteralSyntaxError(`${what} at offset ${position} of ${JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text)}`);
  };
  const skipSpace = (): void => {
    while (position < text.length && /\s/.test(text[position] ?? '')) position += 1;
  };

  const readString = (): string => {
    let raw = false;
    while (/[rRuU]/.test(text[position] ?? '')) {
      if (/[rR]/.test(text[position] ?? '')) raw = true;
      position += 1;
    }
    const quote = text[position];
    if (quote !== "'" && quote !== '"') return fail('expected a quote');
    const triple = text.startsWith(quote.repeat(3), position);
    const closing = triple ? quote.repeat(3) : quote;
    position += closing.length;
    let value = '';
    for (;;) {
      if (position >= text.length) return fail('unterminated string');
      if (text.startsWith(closing, position)) {
        position += closing.length;
        return value;
      }
      const character = text[position] as string;
      if (!triple && character === '\n') return fail('line break inside a string');
      if (character !== '\\') {
        value += character;
        position += 1;
        continue;
      }
      const next = text[position + 1];
      if (next === undefined) return fail('unterminated string');
      if (raw) {
        // In a raw string a backslash stays, and only stops the next quote from closing the string.
        value += `\\${next}`;
        position += 2;
        continue;
      }
      if (next in SIMPLE_ESCAPES) {
        value += SIMPLE_ESCAPES[next];
        position += 2;
        continue;
      }
      const hexLength = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0;
      if (hexLength > 0) {
        const digits = text.slice(position + 2, position + 2 + hexLength);
        if (!new RegExp(`^[0-9a-fA-F]{${hexLength}}$`).test(digits)) return fail(`bad \\${next} escape`);
        value += String.fromCodePoint(Number.parseInt(digits, 16));
        position += 2 + hexLength;
        continue;
      }
      const octal = /^[0-7]{1,3}/.exec(text.slice(position + 1));
      if (octal !== null) {
        value += String.fromCodePoint(Number.parseInt(octal[0], 8));
        position += 1 + octal[0].length;
        continue;
      }
      // Python keeps an unknown escape as written, backslash included.
      value += `\\${next}`;
      position += 2;
    }
  };

  const readSequence = (close: string): unknown[] => {
    position += 1;
    const values: unknown[] = [];
    for (;;) {
      skipSpace();
      if (text[position] === close) {
        position += 1;
        return values;
      }
      values.push(readValue());
      skipSpace();
      if (text[position] === ',') position += 1;
      else if (text[position] !== close) return fail(`expected "," or "${close}"`);
    }
  };

  const readDict = (): Record<string, unknown> => {
    position += 1;
    const entries: Record<string, unknown> = {};
    for (;;) {
      skipSpace();
      if (text[position] === '}') {
        position += 1;
        return entries;
      }
      const key = readValue();
      skipSpace();
      if (text[position] !== ':') return fail('expected ":"');
      position += 1;
      entries[String(key)] = readValue();
      skipSpace();
      if (text[position] === ',') position += 1;
      else if (text[position] !== '}') return fail('expected "," or "}"');
    }
  };

  function readValue(): unknown {
    skipSpace();
    const character = text[position] ?? '';
    if (character === '[') return readSequence(']');
    if (character === '(') return readSequence(')');
    if (character === '{') return readDict();
    if (/^[rRuU]*['"]/.test(text.slice(position, position + 3))) {
      let value = readString();
      // Adjacent string literals are one string in Python.
      for (;;) {
        const before = position;
        skipSpace();
        if (!/^[rRuU]*['"]/.test(text.slice(position, position + 3))) {
          position = before;
          return value;
        }
        value += readString();
      }
    }
    const word = /^(True|False|None)\b/.exec(text.slice(position));
    if (word !== null) {
      position += word[0].length;
      return word[0] === 'True' ? true : word[0] === 'False' ? false : null;
    }
    const number = /^[-+]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?/.exec(text.slice(position));
    if (number !== null) {
      position += number[0].length;
      return Number(number[0].replace(/_/g, ''));
    }
    return fail('unexpected character');
  }

  const value = readValue();
  skipSpace();
  if (position !== text.length) fail('unexpected text after the literal');
  return value;
}

const CONTAINER_KEYS = ['answers', 'ground_truth', 'answer'] as const;
const ENTRY_KEYS = ['text', 'answer', 'value'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string cell that looks like a list or an object: JSON first, then a Python literal, else the text itself. */
function parseStructuredString(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return text;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    try {
      return parsePythonLiteral(trimmed);
    } catch {
      return text;
    }
  }
}

function flatten(value: unknown, depth: number): string[] {
  if (depth > 8) return [];
  if (value === null || value === undefined) return [];
  if (typeof value === 'string') {
    const parsed = parseStructuredString(value);
    return parsed === value ? [value] : flatten(parsed, depth + 1);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) {
    return value.flatMap((entry) => {
      if (isRecord(entry)) {
        const key = ENTRY_KEYS.find((name) => entry[name] !== undefined && entry[name] !== null);
        return key === undefined ? [] : flatten(entry[key], depth + 1);
      }
      return flatten(entry, depth + 1);
    });
  }
  if (isRecord(value)) {
    const key = CONTAINER_KEYS.find((name) => value[name] !== undefined && value[name] !== null);
    return key === undefined ? [] : flatten(value[key], depth + 1);
  }
  return [];
}

/**
 * The gold answers in any of the accepted forms, as trimmed strings: blank answers dropped, exact
 * duplicates removed, order kept (the first is the canonical one). A plain string that is not a
 * list literal is one answer. An empty result means the item has no usable gold answer.
 */
export function parseGoldAnswers(value: unknown): string[] {
  const seen = new Set<string>();
  const answers: string[] = [];
  for (const answer of flatten(value, 0)) {
    const trimmed = answer.trim();
    if (trimmed === '' || seen.has(trimmed)) continue;
    seen.add(trimmed);
    answers.push(trimmed);
  }
  return answers;
}
