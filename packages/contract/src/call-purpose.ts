/**
 * Why a model call is made. Every call carries one, for the ledger, the rollout cache and the
 * events. The set is open: a package may use its own purpose, and the known ones below only give
 * editors something to complete.
 */
export const KNOWN_CALL_PURPOSES = [
  'rollout',
  'reflect',
  'merge',
  'rank',
  'lr-decide',
  'rewrite',
  'slow-update',
  'meta-skill',
  'appendix-consolidate',
  'judge',
  'mine',
  'probe',
] as const;

export type KnownCallPurpose = (typeof KNOWN_CALL_PURPOSES)[number];

// `string & {}` keeps autocompletion of the known purposes while accepting any other string.
export type CallPurpose = KnownCallPurpose | (string & {});

/** Which side of training a model serves. */
export const MODEL_ROLES = ['target', 'optimizer', 'judge'] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];
