// Run setup: the config with its packages, the env, targets and splits, the pre-run estimate, the run directory's lock.
export * from './configured-packages.js';
export * from './prepare-run.js';
export * from './estimate-run.js';
export * from './lock-run-directory.js';
export * from './prepare-chat-model.js';
