import { ERROR_CODES, SkillOptError, runEventSchema, type RunEvent } from '@skillopt/contract';
import { z } from 'zod';
import type { RunEventInput } from './run-event-input.js';

export type RunEventListener = (event: RunEvent) => void;

export interface EventBus {
  readonly runId: string;
  /** Completes the event (runId, timestamp), hands it to every listener in subscription order, and returns it. */
  emit(event: RunEventInput): RunEvent;
  /** Adds a listener; the returned function removes it. */
  subscribe(listener: RunEventListener): () => void;
}

export interface EventBusOptions {
  runId: string;
  /** The clock for timestamps; injectable so tests need no wall clock. */
  now?: () => Date;
  /**
   * Check each event against the contract's runEventSchema and throw an internal error for an
   * invalid one. Cheap enough to leave on; a wrong event is a bug in its producer.
   */
  validate?: boolean;
  /**
   * Called when a listener throws. A broken progress display must not stop training, so the
   * error is reported here (by default as a process warning) and the other listeners still run.
   */
  onListenerError?: (error: unknown, event: RunEvent) => void;
}

/** The in-process channel between the trainer and its observers (CLI progress, events.jsonl, --json). */
export function createEventBus(options: EventBusOptions): EventBus {
  const listeners = new Set<RunEventListener>();
  const now = options.now ?? (() => new Date());
  const validate = options.validate ?? true;
  const onListenerError =
    options.onListenerError ??
    ((error: unknown, event: RunEvent) => {
      process.emitWarning(`A listener of run event ${event.type} failed: ${error instanceof Error ? error.message : String(error)}`);
    });

  return {
    runId: options.runId,
    emit(input) {
      const event = { ...input, runId: options.runId, timestamp: input.timestamp ?? now().toISOString() } as RunEvent;
      if (validate) {
        const parsed = runEventSchema.safeParse(event);
        if (!parsed.success)
          throw new SkillOptError({
            code: ERROR_CODES.internal,
            category: 'internal',
            message: `Invalid ${String(input.type)} event:\n${z.prettifyError(parsed.error)}`,
          });
      }
      // A copy of the set: a listener that unsubscribes while being called does not skip another.
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          onListenerError(error, event);
        }
      }
      return event;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
