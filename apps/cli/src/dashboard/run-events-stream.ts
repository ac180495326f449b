import { stat } from 'node:fs/promises';
import path from 'node:path';
import { readEventsFileFrom, RUN_FILES, type RunListEntry } from '@skillopt/core';
import type { EventStream } from './server-sent-events.js';

/** What `run-status` carries: the run's status and, for a stopped run, why (a killed session included). */
type RunStatusMessage = Pick<RunListEntry, 'status' | 'stop'>;

export interface RunEventsStreamOptions {
  directory: string;
  stream: EventStream;
  /** The byte offset to start after (0: the whole file; a Last-Event-ID: after that event). */
  after: number;
  /** How often events.jsonl's size is checked. */
  pollMs: number;
  /** How often the run's status is asked for besides after a lifecycle event. */
  statusPollMs: number;
  /** The run's status now (from the run list cache: unchanged files are not read again). */
  readStatus(): Promise<RunStatusMessage>;
}

const LIFECYCLE_EVENTS = new Set(['run-started', 'run-stopped', 'run-finished']);

/**
 * Follows one run's events.jsonl for one connection: `run-status` first, then every event after
 * the offset, each with the byte offset after its line as its id, then what is appended, read
 * from the offset this connection reached (core's readEventsFileFrom: a line still being written
 * waits for its newline). The file's size is polled with stat; fs.watch misses appends on some
 * file systems. `run-status` is sent again whenever it changes: a lifecycle event, or a session
 * found killed (its lock's process gone), which writes nothing.
 */
export function followRunEvents(options: RunEventsStreamOptions): void {
  const { directory, stream, pollMs, statusPollMs, readStatus } = options;
  const eventsFile = path.join(directory, RUN_FILES.events);
  let offset = options.after;
  let sizeRead: number | undefined;
  let statusSent: string | undefined;
  let statusAskedAt = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  stream.onClose(() => clearTimeout(timer));

  async function sendStatusIfChanged(): Promise<void> {
    statusAskedAt = Date.now();
    const { status, stop } = await readStatus();
    const text = JSON.stringify({ status, stop });
    if (text === statusSent || stream.closed) return;
    statusSent = text;
    stream.send('run-status', { status, stop });
  }

  async function sendAppended(): Promise<boolean> {
    const size = await stat(eventsFile).then(
      (found) => found.size,
      () => 0,
    );
    if (size === sizeRead) return false;
    sizeRead = size;
    const read = await readEventsFileFrom(eventsFile, offset);
    offset = read.nextOffset;
    read.events.forEach((event, index) => {
      if (!stream.closed) stream.send('run-event', event, read.eventEndOffsets[index]);
    });
    return read.events.some((event) => LIFECYCLE_EVENTS.has(event.type));
  }

  async function tick(): Promise<void> {
    const lifecycleChanged = await sendAppended();
    if (lifecycleChanged || Date.now() - statusAskedAt >= statusPollMs) await sendStatusIfChanged();
  }

  function schedule(): void {
    if (stream.closed) return;
    timer = setTimeout(() => {
      tick().then(schedule, () => stream.end());
    }, pollMs);
  }

  sendStatusIfChanged()
    .then(() => tick())
    .then(schedule, () => stream.end());
}
