import { type FileHandle, mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isFileNotFound, runFileError } from './run-file-error.js';
import { redactArtifactSecrets, secretEnvironmentValues } from './secret-guard.js';

/**
 * JSON Lines files that grow while a run goes (events.jsonl, the rollout cache).
 *
 * A writer only ever appends whole lines, each in a single write. A process killed mid-write can
 * still leave a torn last line (a prefix without its newline). Two rules keep that harmless:
 * - readers treat text after the last newline as torn: it is reported, never parsed as a record;
 * - before its first append (and after any failed one) a writer checks whether the file ends in a
 *   newline and, if not, starts with one, so the torn fragment stays a line of its own that readers
 *   skip, instead of being glued to the next record.
 */

export interface MalformedLine {
  /** 1-based, as an editor shows it. */
  lineNumber: number;
  /** The line, shortened to 200 characters. */
  text: string;
  reason: string;
}

export interface JsonLinesFileContent<Record = unknown> {
  records: Record[];
  /** Complete lines that were not JSON or were rejected by the caller's check. */
  malformedLines: MalformedLine[];
  /** The unterminated text after the last newline, left by a write that was cut off. */
  tornFinalLine: string | undefined;
}

export interface ReadJsonLinesOptions<Record> {
  /**
   * Accepts a parsed line, returning the record or a reason to reject it (e.g. a zod check);
   * rejected lines are reported in `malformedLines`. `lineNumber` is 1-based, as in `malformedLines`.
   */
  accept?: (value: unknown, lineNumber: number) => { ok: true; record: Record } | { ok: false; reason: string };
}

const MAX_REPORTED_LINE_LENGTH = 200;

/** Reads a JSON Lines file; a missing file reads as empty. */
export async function readJsonLinesFile<Record = unknown>(filePath: string, options: ReadJsonLinesOptions<Record> = {}): Promise<JsonLinesFileContent<Record>> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    if (isFileNotFound(error)) return { records: [], malformedLines: [], tornFinalLine: undefined };
    throw runFileError({ filePath, problem: `cannot be read (${error instanceof Error ? error.message : String(error)})`, cause: error });
  }
  return parseJsonLinesText(text, options);
}

/** Parses JSON Lines text as readJsonLinesFile does. */
export function parseJsonLinesText<Record = unknown>(text: string, options: ReadJsonLinesOptions<Record> = {}): JsonLinesFileContent<Record> {
  const lastNewline = text.lastIndexOf('\n');
  const complete = lastNewline === -1 ? '' : text.slice(0, lastNewline);
  const tail = text.slice(lastNewline + 1);
  const content: JsonLinesFileContent<Record> = {
    records: [],
    malformedLines: [],
    tornFinalLine: tail.trim() === '' ? undefined : shorten(tail),
  };
  if (lastNewline === -1) return content;
  const lines = complete.split('\n');
  lines.forEach((rawLine, index) => {
    const line = (index === 0 ? rawLine.replace(/^\uFEFF/, '') : rawLine).replace(/\r$/, '');
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      content.malformedLines.push({ lineNumber: index + 1, text: shorten(line), reason: error instanceof Error ? error.message : String(error) });
      return;
    }
    if (options.accept === undefined) {
      content.records.push(value as Record);
      return;
    }
    const verdict = options.accept(value, index + 1);
    if (verdict.ok) content.records.push(verdict.record);
    else content.malformedLines.push({ lineNumber: index + 1, text: shorten(line), reason: verdict.reason });
  });
  return content;
}

/** One JSON line, newline included. JSON.stringify escapes newlines inside strings, so it is one line. */
export function toJsonLine(record: unknown): string {
  const text = JSON.stringify(record);
  if (text === undefined) throw new TypeError(`A JSON Lines record must be JSON, got ${typeof record}`);
  return `${text}\n`;
}

export interface JsonLinesAppender {
  readonly filePath: string;
  /** Appends the records as whole lines in one write; appends are applied in call order. */
  append(...records: unknown[]): Promise<void>;
  /** Resolves once every append so far has been written (rejects with the first failure). */
  flush(): Promise<void>;
  /** Writes what is queued and closes the file; a later append opens it again. */
  close(): Promise<void>;
}

/**
 * An appender for one file. Appends are queued, so concurrent callers in this process never
 * interleave. One appender per file per process: two appenders to the same file could each
 * check the end of the file and then both write.
 *
 * The file stays open between appends — a run appends thousands of lines, and opening, checking
 * and closing the file for each one cost more than the write — until `close()`, or until a write
 * fails, after which the next append opens the file afresh and checks its end again.
 */
export function createJsonLinesAppender(filePath: string): JsonLinesAppender {
  let queue: Promise<void> = Promise.resolve();
  let handle: FileHandle | undefined;
  let firstFailure: unknown;

  async function opened(): Promise<{ handle: FileHandle; prefix: string }> {
    if (handle !== undefined) return { handle, prefix: '' };
    await mkdir(path.dirname(filePath), { recursive: true });
    const fresh = await open(filePath, 'a+');
    handle = fresh;
    return { handle: fresh, prefix: (await endsWithNewlineOrEmpty(fresh)) ? '' : '\n' };
  }

  async function write(records: unknown[]): Promise<void> {
    if (records.length === 0) return;
    // Each line passes the secret guard (secret-guard.ts) on its way to disk: events, ledger lines
    // and cached rollouts carry provider error texts and model replies.
    const knownSecrets = secretEnvironmentValues();
    const body = records.map((record) => toJsonLine(redactArtifactSecrets(record, knownSecrets))).join('');
    try {
      const { handle: file, prefix } = await opened();
      await file.appendFile(prefix + body);
    } catch (error) {
      // The write may have stopped part-way: reopen and check the end of the file next time.
      await closeHandle().catch(() => undefined);
      throw error;
    }
  }

  async function closeHandle(): Promise<void> {
    const current = handle;
    handle = undefined;
    await current?.close();
  }

  function enqueue(task: () => Promise<void>): Promise<void> {
    const result = queue.then(task);
    queue = result.catch((error: unknown) => {
      firstFailure ??= error;
    });
    return result;
  }

  return {
    filePath,
    append: (...records) => enqueue(() => write(records)),
    async flush() {
      await queue;
      if (firstFailure !== undefined) {
        const failure = firstFailure;
        firstFailure = undefined;
        throw failure;
      }
    },
    async close() {
      await enqueue(closeHandle).catch(() => undefined);
      await this.flush();
    },
  };
}

async function endsWithNewlineOrEmpty(handle: FileHandle): Promise<boolean> {
  const { size } = await handle.stat();
  if (size === 0) return true;
  const buffer = Buffer.alloc(1);
  await handle.read(buffer, 0, 1, size - 1);
  return buffer[0] === 0x0a;
}

function shorten(line: string): string {
  return line.length > MAX_REPORTED_LINE_LENGTH ? `${line.slice(0, MAX_REPORTED_LINE_LENGTH)}…` : line;
}
