import { redactSecrets, type TranscriptEvent } from '@skillopt/contract';

/**
 * The transcript a run keeps for its result: every event scrubbed of secrets, and at most
 * `maxBytes` of them (as JSON). When a run prints more, the start (how the agent set out) and the
 * end (its answer, its last errors) are kept, and one marker event in between says how much was
 * left out; an event too large on its own is replaced by a marker that says so.
 */
export interface TranscriptRecorder {
  push(event: TranscriptEvent): void;
  /** The kept events, in order, with the markers. */
  events(): TranscriptEvent[];
  /** Whether anything was left out. */
  readonly shortened: boolean;
}

/** The `type` of the markers, namespaced so they cannot be mistaken for a harness's own events. */
export const TRANSCRIPT_SHORTENED_EVENT = 'skillopt.transcript-shortened';
export const TRANSCRIPT_EVENT_OMITTED_EVENT = 'skillopt.transcript-event-omitted';

export function createTranscriptRecorder(options: { maxBytes: number; secrets: readonly string[] }): TranscriptRecorder {
  // A quarter for the start, the rest for the end, which usually matters more.
  const headBudget = Math.floor(options.maxBytes / 4);
  const tailBudget = options.maxBytes - headBudget;
  const largestEvent = headBudget;
  const head: TranscriptEvent[] = [];
  let headBytes = 0;
  const tail: Array<{ event: TranscriptEvent; bytes: number }> = [];
  let tailBytes = 0;
  let droppedEvents = 0;
  let droppedBytes = 0;
  let omittedAny = false;

  function sized(event: TranscriptEvent): { event: TranscriptEvent; bytes: number } {
    const scrubbed = redactSecrets(event, options.secrets);
    const bytes = Buffer.byteLength(JSON.stringify(scrubbed), 'utf8');
    if (bytes <= largestEvent) return { event: scrubbed, bytes };
    omittedAny = true;
    const marker: TranscriptEvent = {
      type: TRANSCRIPT_EVENT_OMITTED_EVENT,
      ...(typeof scrubbed.type === 'string' ? { originalType: scrubbed.type } : {}),
      bytes,
      reason: `one event larger than a quarter of the transcript limit (${options.maxBytes} bytes)`,
    };
    return { event: marker, bytes: Buffer.byteLength(JSON.stringify(marker), 'utf8') };
  }

  return {
    push(event) {
      const entry = sized(event);
      if (tail.length === 0 && headBytes + entry.bytes <= headBudget) {
        head.push(entry.event);
        headBytes += entry.bytes;
        return;
      }
      tail.push(entry);
      tailBytes += entry.bytes;
      while (tailBytes > tailBudget && tail.length > 1) {
        const dropped = tail.shift() as { bytes: number };
        tailBytes -= dropped.bytes;
        droppedEvents += 1;
        droppedBytes += dropped.bytes;
      }
    },
    events() {
      const marker: TranscriptEvent[] =
        droppedEvents > 0
          ? [{ type: TRANSCRIPT_SHORTENED_EVENT, droppedEvents, droppedBytes, reason: `the transcript was longer than its limit of ${options.maxBytes} bytes` }]
          : [];
      return [...head, ...marker, ...tail.map((entry) => entry.event)];
    },
    get shortened() {
      return droppedEvents > 0 || omittedAny;
    },
  };
}
