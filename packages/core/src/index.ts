export * from './skill-hash.js';
export * from './rollout-cache/rollout-cache.js';
