// The read-only run reader: one definition of a run directory, both formats, lenient for inspection;
// the run and step reports the dashboard's JSON API serves are built here too.
export * from './line-diff.js';
export * from './run-directory-detection.js';
export * from './run-listing.js';
export * from './run-liveness.js';
export * from './run-reader.js';
export * from './run-report.js';
export * from './skill-timeline.js';
export * from './skill-versions.js';
export * from './step-report.js';
