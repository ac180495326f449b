// The read-only run reader: one definition of a run directory, both formats, lenient for inspection.
export * from './run-directory-detection.js';
export * from './run-reader.js';
export * from './skill-timeline.js';
