import { randomUUID } from 'node:crypto';
import { createLedger, type Ledger } from '@skillopt/core';
import type { WorkerLedgerLine } from './worker-ledger-line.js';

/**
 * A ledger for a worker's metered target (core's `meterChatModel`/`meterAgentRunner`): every
 * call's start and finish are sent on to the trainer, whose ledger prices and keeps them. The start
 * counts as written once it is sent, so no request leaves the worker before the trainer can know.
 */
export function createStreamingLedger(send: (line: WorkerLedgerLine) => Promise<void>, worker: string): Ledger {
  const local = createLedger({});
  const session = randomUUID();
  return {
    ...local,
    begin(call) {
      const started = local.begin(call);
      const callId = `${session}/${started.sequence}`;
      const sent = send({ kind: 'started', callId, ...call, worker });
      sent.catch(() => undefined);
      const finish = (line: Omit<Extract<WorkerLedgerLine, { kind: 'finished' }>, 'kind' | 'callId'>) => {
        send({ kind: 'finished', callId, ...line }).catch(() => undefined);
      };
      return {
        sequence: started.sequence,
        written: Promise.all([started.written, sent]).then(() => undefined),
        succeeded(result) {
          const entry = started.succeeded(result);
          finish({
            outcome: 'succeeded',
            usage: entry.usage,
            latencyMs: entry.latencyMs,
            ...(entry.warnings === undefined ? {} : { warnings: entry.warnings }),
          });
          return entry;
        },
        failed(result) {
          const entry = started.failed(result);
          finish({
            outcome: 'failed',
            usage: entry.usage,
            latencyMs: entry.latencyMs,
            ...(entry.errorCode === undefined ? {} : { errorCode: entry.errorCode }),
          });
          return entry;
        },
      };
    },
  };
}
