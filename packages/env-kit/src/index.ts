// The env author's toolkit. The conformance suite lives in `@skillopt/env-kit/conformance` so that
// production code importing this entry does not pull in `node:assert` and the suite's checks; the
// test doubles are exported from both entries, for an env's own unit tests.

// Split loading
export * from './data-invalid-error.js';
export * from './raw-items-file.js';
export * from './task-item-mapping.js';
export * from './split-directory.js';
export * from './split-directory-writing.js';
export * from './seeded-random.js';
export * from './ratio-split.js';
export * from './configured-splits.js';
export * from './environment-config.js';

// Concurrency, the rollout's work directory and the target call
export * from './map-concurrent.js';
export * from './rollout-work-directory.js';
export * from './target-call-within.js';
export * from './chat-target.js';

// Scoring
export * from './answer-normalisation.js';
export * from './exact-match.js';
export * from './token-f1.js';
export * from './levenshtein-distance.js';
export * from './anls.js';
export * from './choice-letter.js';
export * from './numeric-answer.js';
export * from './tagged-answer.js';

// Test doubles (clearly named: scripted, reference-answering, failing, stalling)
export * from './reference-answer-key.js';
export * from './test-double-chat-model.js';
export * from './test-double-agent-runner.js';
export * from './test-double-targets.js';
export * from './test-double-rollout-context.js';
