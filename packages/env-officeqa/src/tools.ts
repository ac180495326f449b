import vm from 'node:vm';
import type { ToolCall, ToolDefinition } from '@skillopt/contract';
import { canonicalDocumentName, documentNameProblem } from './items.js';
import { DocumentToolError, readDocumentText, type ItemDocument } from './corpus.js';

/**
 * The three document tools the target may call: `glob`, `read` and `grep`. They see only the
 * item's own documents, by the names listed in the task; no tool walks the file system, takes a
 * host path, or runs code. A bad request (unknown tool, bad arguments, a path outside the item's
 * documents, a link leading out of the document folder) is an error result for the model.
 *
 * `glob` comes first: a model that explores before reading starts by listing the documents.
 */
export const OFFICEQA_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'glob',
    description:
      "List this task's documents whose names match a glob pattern (`*` matches any run of characters, `?` one character, `[abc]` a set; `**/` any folders). Returns one document name per line.",
    inputSchema: {
      type: 'object',
      properties: { pattern: { type: 'string', description: 'A glob pattern over document names, e.g. "*.txt" or "*1977*".' } },
      required: ['pattern'],
      additionalProperties: false,
    },
  },
  {
    name: 'read',
    description:
      "Read lines of one of this task's documents. Each line comes back prefixed with its line number. Long output is cut; continue with a later offset.",
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'A document name exactly as listed in the task.' },
        offset: { type: 'integer', minimum: 1, description: 'The first line to return (1-based). Default 1.' },
        limit: { type: 'integer', minimum: 1, description: `How many lines to return. Default ${200}, at most ${1000}.` },
      },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'grep',
    description:
      "Search this task's documents for lines matching a regular expression (case-insensitive, JavaScript syntax). Returns `document:line: text` for each match.",
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'A regular expression, e.g. "total receipts" or "fiscal year 19[78][0-9]".' },
        path: { type: 'string', description: 'Optional: one document name, or a glob pattern over document names. Default: every document of the task.' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
  },
];

export const OFFICEQA_TOOL_NAMES = OFFICEQA_TOOLS.map((tool) => tool.name);

export const DEFAULT_READ_LINES = 200;
export const MAX_READ_LINES = 1000;
export const MAX_GREP_MATCHES = 50;
const MAX_PATTERN_CHARS = 500;
/** How long one grep pattern may run on one document. */
const GREP_TIME_LIMIT_MS = 500;
const MAX_GREP_LINE_CHARS = 300;
/** Lines longer than this are searched only up to here, which bounds a pathological regular expression's work. */
const MAX_SEARCHED_LINE_CHARS = 4000;
const MAX_GLOB_RESULTS = 100;

/** What a tool call produced: the text the model receives, and whether it was an error. */
export interface ToolOutcome {
  output: string;
  isError: boolean;
}

/**
 * A glob pattern as a regular expression over whole names, with Python `fnmatch` semantics (what
 * the original used): case-sensitive, `*` matches any characters including `/`, `?` one
 * character, `[seq]`/`[!seq]` a set. A `**` followed by `/` also matches no folder at all, so
 * `**` + `/*.txt` finds top-level names too.
 */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const character = pattern[index] as string;
    if (character === '*') {
      let end = index;
      while (pattern[end + 1] === '*') end += 1;
      if (end > index && pattern[end + 1] === '/') {
        source += '(?:.*/)?';
        index = end + 1;
      } else {
        source += '.*';
        index = end;
      }
    } else if (character === '?') {
      source += '.';
    } else if (character === '[') {
      const close = pattern.indexOf(']', index + 2);
      if (close === -1) {
        source += '\\[';
        continue;
      }
      let set = pattern.slice(index + 1, close);
      const negated = set.startsWith('!');
      if (negated) set = set.slice(1);
      source += `[${negated ? '^' : ''}${set.replace(/\\/g, '\\\\').replace(/\^/g, '\\^')}]`;
      index = close;
    } else {
      source += character.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`, 's');
}

/** The item's document names a glob pattern matches (whole name or last segment). */
function matchDocuments(pattern: string, documents: readonly ItemDocument[]): ItemDocument[] {
  const expression = globToRegExp(canonicalDocumentName(pattern) || pattern);
  return documents.filter((document) => expression.test(document.name) || expression.test(document.name.split('/').pop() ?? ''));
}

function argumentsOf(call: ToolCall): Record<string, unknown> {
  let input = call.input;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      // reported below
    }
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new DocumentToolError(`${call.toolName}: the arguments must be a JSON object`);
  }
  return input as Record<string, unknown>;
}

function requiredText(args: Record<string, unknown>, name: string, tool: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value.trim() === '') throw new DocumentToolError(`${tool}: "${name}" must be a non-empty string`);
  return value.trim();
}

function optionalWholeNumber(args: Record<string, unknown>, name: string, tool: string): number | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1) {
    throw new DocumentToolError(`${tool}: "${name}" must be a whole number of at least 1, got ${JSON.stringify(value)}`);
  }
  return number;
}

/** Refuses absolute paths, `..` and the like before anything is looked up; the message tells the model what a valid path is. */
function checkRequestedName(requested: string, tool: string, documents: readonly ItemDocument[]): string {
  const problem = documentNameProblem(requested);
  if (problem !== undefined) {
    const example = documents[0]?.name ?? 'a listed document';
    throw new DocumentToolError(`${tool}: refused, "${requested}" ${problem}. Use the document names listed in the task, e.g. "${example}".`);
  }
  return canonicalDocumentName(requested);
}

function listNames(documents: readonly ItemDocument[]): string {
  return documents.map((document) => document.name).join(', ');
}

/** Cuts a tool output to `maxCharacters`, with a visible note. */
export function capOutput(text: string, maxCharacters: number, note = ''): string {
  if (text.length <= maxCharacters) return text;
  const cut = text.slice(0, maxCharacters);
  const atLine = cut.lastIndexOf('\n');
  return `${atLine > maxCharacters / 2 ? cut.slice(0, atLine) : cut}\n[... output cut at ${maxCharacters} characters${note}]`;
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

async function runGlob(args: Record<string, unknown>, documents: readonly ItemDocument[]): Promise<string> {
  const pattern = checkRequestedName(requiredText(args, 'pattern', 'glob'), 'glob', documents);
  const matches = matchDocuments(pattern, documents)
    .map((document) => document.name)
    .sort();
  if (matches.length === 0) return '[no matches]';
  const shown = matches.slice(0, MAX_GLOB_RESULTS);
  return matches.length > shown.length ? `${shown.join('\n')}\n[... ${matches.length - shown.length} more]` : shown.join('\n');
}

async function runRead(args: Record<string, unknown>, documents: readonly ItemDocument[], maxCharacters: number): Promise<string> {
  const name = checkRequestedName(requiredText(args, 'path', 'read'), 'read', documents);
  const offset = optionalWholeNumber(args, 'offset', 'read') ?? 1;
  const limit = Math.min(optionalWholeNumber(args, 'limit', 'read') ?? DEFAULT_READ_LINES, MAX_READ_LINES);
  const document = documents.find((candidate) => candidate.name === name);
  if (document === undefined) throw new DocumentToolError(`read: "${name}" is not one of this task's documents (${listNames(documents)})`);
  const lines = splitLines(await readDocumentText(document));
  if (lines.length === 0 || (lines.length === 1 && lines[0] === '')) return `[${name} is empty]`;
  if (offset > lines.length) return `[${name} has ${lines.length} lines; offset ${offset} is past the end]`;
  const last = Math.min(lines.length, offset + limit - 1);
  const body = lines
    .slice(offset - 1, last)
    .map((line, index) => `${offset + index}: ${line}`)
    .join('\n');
  const header = `[${name}: lines ${offset}-${last} of ${lines.length}]`;
  const more = last < lines.length ? `\n[... more lines follow; continue with offset=${last + 1}]` : '';
  const text = `${header}\n${body}${more}`;
  if (text.length <= maxCharacters) return text;
  // Cut at a whole line, keeping room for the note that says where to continue.
  const noteRoom = 70;
  const kept: string[] = [header];
  let length = header.length;
  let next = offset;
  for (const line of body.split('\n')) {
    if (length + 1 + line.length + noteRoom > maxCharacters) break;
    kept.push(line);
    length += 1 + line.length;
    next += 1;
  }
  if (kept.length === 1) {
    // Not even one whole line fits: show the start of the first one.
    const first = lines[offset - 1] ?? '';
    const room = Math.max(20, maxCharacters - header.length - noteRoom);
    kept.push(`${offset}: ${first.length > room ? `${first.slice(0, room)} [... line cut]` : first}`);
    next = offset + 1;
  }
  return `${kept.join('\n')}\n[... output cut at ${maxCharacters} characters; continue with offset=${next}]`;
}

/**
 * The lines a model-written pattern matches, under a time limit: a pattern such as `(a+)+$`
 * backtracks for minutes, and it would block the event loop, so neither the item's timeout nor an
 * abort could stop it. In a separate V8 context with a timeout it is interrupted and reported.
 */
function matchingLineIndexes(expression: RegExp, lines: readonly string[], documentName: string): number[] {
  try {
    const found = vm.runInNewContext(
      'lines.flatMap((line, index) => (expression.test(line) ? [index] : []))',
      { expression, lines },
      { timeout: GREP_TIME_LIMIT_MS },
    );
    return Array.from(found as ArrayLike<number>);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new DocumentToolError(
        `grep: the pattern took longer than ${GREP_TIME_LIMIT_MS} ms on ${documentName}; use a simpler one (nested quantifiers such as (a+)+ backtrack without end)`,
      );
    throw error;
  }
}

async function runGrep(args: Record<string, unknown>, documents: readonly ItemDocument[], maxCharacters: number): Promise<string> {
  const pattern = requiredText(args, 'pattern', 'grep');
  if (pattern.length > MAX_PATTERN_CHARS) throw new DocumentToolError(`grep: the pattern is longer than ${MAX_PATTERN_CHARS} characters`);
  let expression: RegExp;
  try {
    expression = new RegExp(pattern, 'i');
  } catch (error) {
    throw new DocumentToolError(`grep: invalid regular expression: ${(error as Error).message}`);
  }
  let selected: readonly ItemDocument[] = documents;
  if (args.path !== undefined && args.path !== null && args.path !== '') {
    const requested = checkRequestedName(requiredText(args, 'path', 'grep'), 'grep', documents);
    selected = matchDocuments(requested, documents);
    if (selected.length === 0) throw new DocumentToolError(`grep: "${requested}" matches none of this task's documents (${listNames(documents)})`);
  }
  const matches: string[] = [];
  const notes: string[] = [];
  let total = 0;
  for (const document of selected) {
    let text: string;
    try {
      text = await readDocumentText(document);
    } catch (error) {
      if (!(error instanceof DocumentToolError)) throw error;
      notes.push(`[skipped ${error.message}]`);
      continue;
    }
    const lines = splitLines(text);
    const matching = new Set(
      matchingLineIndexes(
        expression,
        lines.map((line) => line.slice(0, MAX_SEARCHED_LINE_CHARS)),
        document.name,
      ),
    );
    lines.forEach((line, index) => {
      if (!matching.has(index)) return;
      total += 1;
      if (matches.length < MAX_GREP_MATCHES) {
        const shown = line.length > MAX_GREP_LINE_CHARS ? `${line.slice(0, MAX_GREP_LINE_CHARS)} [...]` : line;
        matches.push(`${document.name}:${index + 1}: ${shown}`);
      }
    });
  }
  if (notes.length > 0 && total === 0 && notes.length === selected.length) throw new DocumentToolError(`grep: ${notes.join(' ')}`);
  const lines = [...notes, ...(total === 0 ? ['[no matches]'] : matches)];
  if (total > matches.length) lines.push(`[... ${total - matches.length} more matches; narrow the pattern or the path]`);
  return capOutput(lines.join('\n'), maxCharacters);
}

/**
 * Runs one tool call against the item's documents. Never throws for anything the model did
 * wrong: every such problem is an error outcome. Errors of the host (an unreadable corpus after
 * the checks) are error outcomes too, worded without host paths.
 */
export async function runOfficeQaTool(call: ToolCall, documents: readonly ItemDocument[], maxCharacters: number): Promise<ToolOutcome> {
  try {
    const args = argumentsOf(call);
    switch (call.toolName) {
      case 'glob':
        return { output: capOutput(await runGlob(args, documents), maxCharacters), isError: false };
      case 'read':
        return { output: await runRead(args, documents, maxCharacters), isError: false };
      case 'grep':
        return { output: await runGrep(args, documents, maxCharacters), isError: false };
      default:
        return { output: `unknown tool "${call.toolName}"; the tools are ${OFFICEQA_TOOL_NAMES.join(', ')}`, isError: true };
    }
  } catch (error) {
    if (error instanceof DocumentToolError) return { output: error.message, isError: true };
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    return { output: `${call.toolName}: the document could not be read${code ? ` (${code})` : ''}`, isError: true };
  }
}
