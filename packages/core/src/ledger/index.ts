export * from './ledger-entry.js';
export * from './usage-totals.js';
export * from './budget.js';
export * from './ledger.js';
export * from './metered-models.js';
export * from './call-estimate.js';
export * from './ledger-file.js';
