import type { RunEvent } from '@skillopt/contract';

/** Omit applied to each member of a union (plain Omit would merge the union into one shape). */
type DistributiveOmit<Union, Key extends PropertyKey> = Union extends unknown ? Omit<Union, Key> : never;

/**
 * An event as a producer emits it: the bus fills in `runId`, and `timestamp` unless the producer
 * sets one (a replay of recorded events keeps its original times).
 */
export type RunEventInput = DistributiveOmit<RunEvent, 'runId' | 'timestamp'> & { timestamp?: string };

/** Where producers (the trainer, metered models) send events; an EventBus's `emit` is one. */
export type RunEventEmitter = (event: RunEventInput) => void;
