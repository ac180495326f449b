import { type Ledger, type RunEventEmitter, type StartedCall, usageRecordedEvent } from '@skillopt/core';
import type { Redis } from 'ioredis';
import { runLedgerStreamKey } from './redis-keys.js';
import type { WorkerLedgerLine } from './worker-ledger-line.js';

/** Reads the run's stream of worker ledger lines into the trainer's ledger until stopped. */
export interface WorkerLedgerReader {
  /** Reads what is left, records a call whose worker never finished it as failed, and stops. */
  stop(): Promise<void>;
}

/** The error code of a call a worker started and never finished (it was killed, or is still running when the run ends). */
const UNFINISHED_WORKER_CALL = 'worker-call-unfinished';

/**
 * Follows the run's ledger stream on its own connection (a blocking read would hold up every
 * other command): each line is recorded in `ledger` with the worker that made the call, then
 * deleted from the stream, so a resumed trainer records no line twice.
 */
export function startWorkerLedgerReader(connection: Redis, runId: string, ledger: Ledger, emit?: RunEventEmitter): WorkerLedgerReader {
  const key = runLedgerStreamKey(runId);
  const started = new Map<string, StartedCall>();
  const estimates = new Map<string, Extract<WorkerLedgerLine, { kind: 'started' }>['estimatedUsage']>();
  let stopping = false;

  function apply(line: WorkerLedgerLine): void {
    if (line.kind === 'started') {
      const { kind: _kind, callId, ...call } = line;
      started.set(callId, ledger.begin(call));
      estimates.set(callId, call.estimatedUsage);
      return;
    }
    const call = started.get(line.callId);
    // A finish whose start an earlier trainer session read cannot be attributed here; that session recorded the start.
    if (call === undefined) return;
    started.delete(line.callId);
    estimates.delete(line.callId);
    if (line.outcome === 'failed') {
      call.failed({ usage: line.usage, latencyMs: line.latencyMs, errorCode: line.errorCode ?? 'unknown' });
      return;
    }
    // As a metered model on the trainer would: a finished call is told to the progress display and --json.
    const entry = call.succeeded({ usage: line.usage, latencyMs: line.latencyMs, ...(line.warnings === undefined ? {} : { warnings: line.warnings }) });
    emit?.(usageRecordedEvent(entry));
  }

  async function readOnce(blockMs: number | undefined): Promise<number> {
    const reply = (
      blockMs === undefined
        ? await connection.xread('COUNT', 500, 'STREAMS', key, '0')
        : await connection.xread('COUNT', 500, 'BLOCK', blockMs, 'STREAMS', key, '0')
    ) as Array<[string, Array<[string, string[]]>]> | null;
    const entries = reply?.[0]?.[1] ?? [];
    for (const [, fields] of entries) {
      const text = fields[fields.indexOf('line') + 1];
      if (text !== undefined) apply(JSON.parse(text) as WorkerLedgerLine);
    }
    if (entries.length > 0) await connection.xdel(key, ...entries.map(([id]) => id));
    return entries.length;
  }

  const following = (async () => {
    while (!stopping) {
      try {
        if ((await readOnce(200)) === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      } catch {
        // Redis away: the connection waits for it; nothing is lost that it still holds.
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  })();

  return {
    async stop() {
      stopping = true;
      // A read blocked on a Redis that is away is not waited for: what it holds stays in the stream.
      await Promise.race([following, new Promise((resolve) => setTimeout(resolve, 1000))]);
      if (connection.status === 'ready') while ((await readOnce(undefined).catch(() => 0)) > 0);
      for (const [callId, call] of started) {
        const usage = estimates.get(callId);
        call.failed({ latencyMs: 0, errorCode: UNFINISHED_WORKER_CALL, ...(usage === undefined ? {} : { usage }) });
      }
      started.clear();
      connection.disconnect();
    },
  };
}
