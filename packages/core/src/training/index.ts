export * from './batch-plan.js';
export * from './run-summary.js';
export * from './train.js';
export * from './evaluate.js';
