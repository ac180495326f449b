import { OPTIMIZER_STAGES } from './optimizer-stage.js';
import { SLEEP_STAGES } from './sleep-stage.js';

/**
 * Why a model call or an agent run is made. Every call carries one, for the ledger, the rollout
 * cache and the events. The set is open: a package may use its own purpose, and the known ones
 * below only give editors something to complete. The optimizer's calls are named after their
 * stage (OPTIMIZER_STAGES; an agent acting as the optimizer runs with `optimize`), Sleep's after
 * theirs (SLEEP_STAGES: `judge`, `mine`, `replay`).
 */
export const KNOWN_CALL_PURPOSES = ['rollout', ...OPTIMIZER_STAGES, ...SLEEP_STAGES, 'probe'] as const;

export type KnownCallPurpose = (typeof KNOWN_CALL_PURPOSES)[number];

// `string & {}` keeps autocompletion of the known purposes while accepting any other string.
export type CallPurpose = KnownCallPurpose | (string & {});

/** Which side of training a model serves. */
export const MODEL_ROLES = ['target', 'optimizer', 'judge'] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];
