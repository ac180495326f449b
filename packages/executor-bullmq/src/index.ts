export { rolloutJobId } from './rollout-job-id.js';
