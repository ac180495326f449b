import { readRunEvent, type RunEvent } from '@skillopt/contract';
import { type FileHandle, open } from 'node:fs/promises';
import { createJsonLinesAppender, parseJsonLinesText, readJsonLinesFile, type JsonLinesFileContent, type MalformedLine } from '../run-store/json-lines-file.js';
import { isFileNotFound, runFileError } from '../run-store/run-file-error.js';

export interface EventsFileSink {
  readonly filePath: string;
  /** A listener for EventBus.subscribe: queues the event as one line of events.jsonl. */
  write(event: RunEvent): void;
  /** Resolves when every queued event is written; rejects with the first write failure. */
  flush(): Promise<void>;
  /** Flushes and closes events.jsonl; a later event opens it again. */
  close(): Promise<void>;
}

/**
 * Appends events to events.jsonl, one whole line per event (see json-lines-file.ts for why a killed
 * run never leaves a torn line that breaks readers). The bus is synchronous and writing is not,
 * so writes are queued in order and a failure is reported by `flush()` — which the trainer calls
 * at step boundaries and at the end — rather than thrown into the middle of the run.
 */
export function createEventsFileSink(filePath: string): EventsFileSink {
  const appender = createJsonLinesAppender(filePath);
  return {
    filePath,
    write(event) {
      // The failure is kept by the appender and surfaces in flush().
      appender.append(event).catch(() => undefined);
    },
    flush: () => appender.flush(),
    close: () => appender.close(),
  };
}

export interface EventsFileContent {
  /** The events of known types, each with every field it was written with (unknown ones kept). */
  events: RunEvent[];
  /**
   * Events of types this release does not know, by type, with how many there were: written by a
   * newer SkillOpt, they are skipped and counted, not errors (docs/contract.md, "Evolution").
   */
  unknownEventTypes: Record<string, number>;
  /** Lines that are no event at all, or an event of a known type missing what that type requires. */
  malformedLines: MalformedLine[];
  tornFinalLine: string | undefined;
}

/** Reads events.jsonl tolerantly (for the dashboard, `skillopt runs`, tests); a missing file has no events. */
export async function readEventsFile(filePath: string): Promise<EventsFileContent> {
  const reader = eventLineReader();
  const content = await readJsonLinesFile<RunEvent | undefined>(filePath, { accept: reader.accept });
  return reader.contentOf(content);
}

export interface EventsFileIncrement extends EventsFileContent {
  /**
   * For each of `events`, in order, the byte offset just after its line: where a reader that has
   * that event and every one before it resumes (the dashboard's server-sent event ids).
   */
  eventEndOffsets: number[];
  /** Where the next read starts: just after the last complete line read. */
  nextOffset: number;
  /** True when the file was shorter than the offset asked for (replaced): it was read from its start. */
  restarted: boolean;
}

/**
 * The events appended to events.jsonl since byte `offset`, for a reader that follows a run as it
 * goes: only what is new is read, and a line still being written is left for the next read (it is
 * no torn line yet). Line numbers of malformed lines count from `offset`.
 */
export async function readEventsFileFrom(filePath: string, offset: number): Promise<EventsFileIncrement> {
  const reader = eventLineReader();
  const empty = { events: [], eventEndOffsets: [], unknownEventTypes: {}, malformedLines: [], tornFinalLine: undefined };
  let handle: FileHandle;
  try {
    handle = await open(filePath, 'r');
  } catch (error) {
    if (isFileNotFound(error)) return { ...empty, nextOffset: 0, restarted: offset > 0 };
    throw runFileError({ filePath, problem: `cannot be read (${error instanceof Error ? error.message : String(error)})`, cause: error });
  }
  try {
    const { size } = await handle.stat();
    const restarted = size < offset;
    const start = restarted ? 0 : offset;
    const bytes = Buffer.alloc(size - start);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, start + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    // A newline byte never occurs inside a multi-byte UTF-8 character, so cutting there is safe.
    const complete = bytes.subarray(0, bytes.subarray(0, filled).lastIndexOf(0x0a) + 1);
    if (complete.length === 0) return { ...empty, nextOffset: start, restarted };
    const content = parseJsonLinesText<RunEvent | undefined>(complete.toString('utf8'), { accept: reader.accept });
    const lineEnds = lineEndOffsets(complete, start);
    return {
      ...reader.contentOf(content),
      eventEndOffsets: reader.eventLineNumbers.map((lineNumber) => lineEnds[lineNumber - 1] ?? start + complete.length),
      nextOffset: start + complete.length,
      restarted,
    };
  } finally {
    await handle.close();
  }
}

/** The file offset just after each line of `lines` (complete lines read from `start`), in order. */
function lineEndOffsets(lines: Buffer, start: number): number[] {
  const ends: number[] = [];
  for (let newline = lines.indexOf(0x0a); newline !== -1; newline = lines.indexOf(0x0a, newline + 1)) ends.push(start + newline + 1);
  return ends;
}

/** Accepts known events (noting the line of each), counts the types of a newer release and rejects the rest. */
function eventLineReader() {
  const unknownEventTypes: Record<string, number> = {};
  const eventLineNumbers: number[] = [];
  return {
    eventLineNumbers,
    accept(value: unknown, lineNumber: number): { ok: true; record: RunEvent | undefined } | { ok: false; reason: string } {
      const reading = readRunEvent(value);
      if (reading.kind === 'event') {
        eventLineNumbers.push(lineNumber);
        return { ok: true, record: reading.event };
      }
      if (reading.kind === 'unknown-type') {
        unknownEventTypes[reading.type] = (unknownEventTypes[reading.type] ?? 0) + 1;
        return { ok: true, record: undefined };
      }
      return { ok: false, reason: reading.reason };
    },
    contentOf(content: JsonLinesFileContent<RunEvent | undefined>): EventsFileContent {
      const events = content.records.filter((event): event is RunEvent => event !== undefined);
      return { events, unknownEventTypes, malformedLines: content.malformedLines, tornFinalLine: content.tornFinalLine };
    },
  };
}
