// Run setup: the config with its packages, the env, targets and splits, and the pre-run estimate.
export * from './configured-packages.js';
export * from './prepare-run.js';
export * from './estimate-run.js';
