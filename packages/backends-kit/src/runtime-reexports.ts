// The process runner, the abortable waits and the nearest-name suggestion live in
// @skillopt/runtime-kit, shared with env packages; they are re-exported here so that a backend
// needs one import for the harness it drives (or the model it cannot find), and so that this
// package's earlier exports keep working.
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
  nearestName,
  type LineSplitter,
  type JsonLinesParser,
  type JsonLinesResult,
  type MalformedJsonLine,
  type ProcessResult,
  type RunProcessOptions,
} from '@skillopt/runtime-kit';
