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
   * Which events are checked against the contract's runEventSchema (an invalid one throws an
   * internal error: a wrong event is a bug in its producer). Events are typed at compile time, so
   * by default only the first event of each type in the process is checked — enough to catch a
   * producer built against another contract — and, under Jest (`NODE_ENV=test`), every event.
   */
  validation?: EventValidation;
  /**
   * Called when a listener throws. A broken progress display must not stop training, so the
   * error is reported here (by default as a process warning) and the other listeners still run.
   */
  onListenerError?: (error: unknown, event: RunEvent) => void;
}

export type EventValidation = 'every-event' | 'first-of-each-type';

/** Event types whose first event this process has checked (under 'first-of-each-type'). */
const checkedEventTypes = new Set<string>();

function mustCheck(validation: EventValidation, type: string): boolean {
  if (validation === 'every-event') return true;
  if (checkedEventTypes.has(type)) return false;
  checkedEventTypes.add(type);
  return true;
}

/** The in-process channel between the trainer and its observers (CLI progress, events.jsonl, --json). */
export function createEventBus(options: EventBusOptions): EventBus {
  const listeners = new Set<RunEventListener>();
  const now = options.now ?? (() => new Date());
  const validation = options.validation ?? (process.env.NODE_ENV === 'test' ? 'every-event' : 'first-of-each-type');
  const onListenerError =
    options.onListenerError ??
    ((error: unknown, event: RunEvent) => {
      process.emitWarning(`A listener of run event ${event.type} failed: ${error instanceof Error ? error.message : String(error)}`);
    });

  return {
    runId: options.runId,
    emit(input) {
      const event = { ...input, runId: options.runId, timestamp: input.timestamp ?? now().toISOString() } as RunEvent;
      if (mustCheck(validation, String(input.type))) {
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
