// Small runtime primitives every SkillOpt package may share (DESIGN.md: runtime-kit depends on the
// contract alone; both kits and everything above may depend on it).

// Waiting, aborting and deadlines
export * from './abortable-wait.js';
export * from './deadline.js';

// Errors for options and validation
export * from './invalid-option.js';
export * from './zod-issues.js';

// Child processes and their output
export * from './child-environment.js';
export * from './line-splitter.js';
export * from './json-lines.js';
export * from './output-tail.js';
export * from './run-process.js';
