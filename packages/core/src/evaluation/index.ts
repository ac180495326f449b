// Rolling a skill out on a set of items: cache, retries, exclusion of infrastructure failures.
export * from './item-evaluation.js';
export * from './score-summary.js';
export * from './target-model-id.js';
export * from './rollout-failure.js';
export * from './evaluate-skill.js';
export * from './executor.js';
export * from './rollout-phase-split.js';
export * from './pending-answers.js';
