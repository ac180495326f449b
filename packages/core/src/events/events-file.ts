import { runEventSchema, type RunEvent } from '@skillopt/contract';
import { createJsonLinesAppender, readJsonLinesFile, type MalformedLine } from '../run-store/json-lines-file.js';

export interface EventsFileSink {
  readonly filePath: string;
  /** A listener for EventBus.subscribe: queues the event as one line of events.jsonl. */
  write(event: RunEvent): void;
  /** Resolves when every queued event is written; rejects with the first write failure. */
  flush(): Promise<void>;
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
  };
}

export interface EventsFileContent {
  events: RunEvent[];
  /**
   * Lines that are JSON but not a known event. New event types may be added without a version
   * bump, so readers skip what they do not know; these are reported, not fatal.
   */
  unknownLines: MalformedLine[];
  tornFinalLine: string | undefined;
}

/** Reads events.jsonl (for the dashboard, `skillopt runs`, tests); a missing file has no events. */
export async function readEventsFile(filePath: string): Promise<EventsFileContent> {
  const content = await readJsonLinesFile<RunEvent>(filePath, {
    accept(value) {
      const parsed = runEventSchema.safeParse(value);
      if (parsed.success) return { ok: true, record: parsed.data };
      const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
      return { ok: false, reason: `not a known run event (type ${JSON.stringify(type)})` };
    },
  });
  return { events: content.records, unknownLines: content.malformedLines, tornFinalLine: content.tornFinalLine };
}
