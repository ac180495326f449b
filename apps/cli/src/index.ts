export { EXIT_CODES } from './base-command.js';
