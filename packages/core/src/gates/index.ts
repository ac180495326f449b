// The validation gate: score projection, density bonus, vetoes, and the strict and paired strategies.
export * from './gate-metric.js';
export * from './semantic-density.js';
export * from './gate-scoring.js';
export * from './gate-item-result.js';
export * from './item-pairing.js';
export * from './gate-vetoes.js';
export * from './gate-decision.js';
export * from './strict-gate.js';
export * from './sequential-sign-test.js';
export * from './paired-gate.js';
