/**
 * The optimizer's stages, defined once for every package that names one: the call purpose of a
 * stage's model calls is the stage's name, the `edits-proposed` and `stage-failed` events carry it,
 * and the simulated optimizer recognises it. A step runs reflect → merge → rank (ranking, and
 * keeping at most the learning rate of the edits) → lr-decide (when the model picks the learning
 * rate) → rewrite; an epoch ends with slow-update, meta-skill and appendix-consolidate. With an
 * agent as the optimizer, `optimize` (the agent editing a copy of the skill) takes the place of
 * reflect and merge.
 */
export const OPTIMIZER_STAGES = ['reflect', 'merge', 'rank', 'lr-decide', 'rewrite', 'slow-update', 'meta-skill', 'appendix-consolidate', 'optimize'] as const;
export type OptimizerStage = (typeof OPTIMIZER_STAGES)[number];

/**
 * The optimizer's prompt templates and the stage each serves. Two stages have two templates: a
 * reflection reads failed or successful trajectories, a rewrite applies chosen suggestions or
 * writes the whole skill anew.
 */
export const OPTIMIZER_PROMPT_STAGES = {
  'reflect-failure': 'reflect',
  'reflect-success': 'reflect',
  merge: 'merge',
  rank: 'rank',
  'lr-decide': 'lr-decide',
  'rewrite-from-suggestions': 'rewrite',
  'full-rewrite': 'rewrite',
  'slow-update': 'slow-update',
  'meta-skill': 'meta-skill',
  'appendix-consolidate': 'appendix-consolidate',
} as const satisfies Record<string, OptimizerStage>;
export type OptimizerPrompt = keyof typeof OPTIMIZER_PROMPT_STAGES;
export const OPTIMIZER_PROMPTS = Object.keys(OPTIMIZER_PROMPT_STAGES) as readonly OptimizerPrompt[];

/** Which candidate a gate judges: a training step's, or the epoch-end slow update's. */
export const GATED_CANDIDATE_KINDS = ['step', 'slow-update'] as const satisfies readonly ('step' | OptimizerStage)[];
export type GatedCandidateKind = (typeof GATED_CANDIDATE_KINDS)[number];
