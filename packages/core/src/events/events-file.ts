import { readRunEvent, type RunEvent } from '@skillopt/contract';
import { createJsonLinesAppender, readJsonLinesFile, type MalformedLine } from '../run-store/json-lines-file.js';

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
  const unknownEventTypes: Record<string, number> = {};
  const content = await readJsonLinesFile<RunEvent | undefined>(filePath, {
    accept(value) {
      const reading = readRunEvent(value);
      if (reading.kind === 'event') return { ok: true, record: reading.event };
      if (reading.kind === 'unknown-type') {
        unknownEventTypes[reading.type] = (unknownEventTypes[reading.type] ?? 0) + 1;
        return { ok: true, record: undefined };
      }
      return { ok: false, reason: reading.reason };
    },
  });
  const events = content.records.filter((event): event is RunEvent => event !== undefined);
  return { events, unknownEventTypes, malformedLines: content.malformedLines, tornFinalLine: content.tornFinalLine };
}
