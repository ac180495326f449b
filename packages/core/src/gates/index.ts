// The validation gate: score projection, density bonus, vetoes, the strict and paired strategies, and the port over them.
export * from './gate-metric.js';
export * from './semantic-density.js';
export * from './gate-scoring.js';
export * from './gate-item-result.js';
export * from './item-pairing.js';
export * from './gate-vetoes.js';
export * from './gate-decision.js';
export * from './strict-gate.js';
export * from './gate-bounds.js';
export * from './early-strict-gate.js';
export * from './sequential-sign-test.js';
export * from './paired-gate.js';
export { selectionScores } from './selection-scores.js';
export {
  createCandidateGate,
  type CandidateGate,
  type CandidateGateOptions,
  type CandidateGateRequest,
  type CandidateGateResult,
  type GateEvaluator,
  type GateEvent,
  type GateSettings,
} from './candidate-gate.js';
