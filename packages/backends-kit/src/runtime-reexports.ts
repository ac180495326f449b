// The process runner and the abortable waits live in @skillopt/runtime-kit, shared with env
// packages; they are re-exported here so that a backend needs one import for the harness it
// drives, and so that this package's earlier exports keep working.
export {
  abortable,
  abortReason,
  sleep,
  buildChildEnvironment,
  createLineSplitter,
  createJsonLinesParser,
  parseJsonLines,
  OutputTail,
  runProcess,
  type LineSplitter,
  type JsonLinesParser,
  type JsonLinesResult,
  type MalformedJsonLine,
  type ProcessResult,
  type RunProcessOptions,
} from '@skillopt/runtime-kit';
