// Small runtime primitives every SkillOpt package may share (docs/architecture.md#dependency-rule:
// runtime-kit depends on the contract alone; both kits and everything above may depend on it).

// Waiting, aborting and deadlines
export { abortable, abortReason, sleep } from './abortable-wait.js';
export { createDeadline, type Deadline, type DeadlineOptions, withDeadline } from './deadline.js';

// The critical path in call latencies
export { forkLatencySlots, type LatencySlotFork, type LatencySlotTally, latencySlotRecorder, measureLatencySlots } from './latency-slots.js';

// Names: the nearest one, for a "did you mean"
export { levenshteinDistance } from './levenshtein-distance.js';
export { nearestName } from './nearest-name.js';

// Errors for options and validation
export { invalidOption, requireNonNegativeNumber, requirePositiveInteger, requirePositiveNumber } from './invalid-option.js';
export { formatZodIssues, type FormatZodIssuesOptions, type ValidationIssue } from './zod-issues.js';

// Child processes and their output
export { buildChildEnvironment } from './child-environment.js';
export { createLineSplitter, type LineSplitter } from './line-splitter.js';
export { createJsonLinesParser, type JsonLinesParser, type JsonLinesResult, type MalformedJsonLine, parseJsonLines } from './json-lines.js';
export { OutputTail } from './output-tail.js';
export { commandNotFoundError, type ProcessResult, runProcess, type RunProcessOptions } from './run-process.js';

// Running generated code: bubblewrap, or the explicit opt-out; reading back what it wrote
export { type BubblewrapSandboxOptions, createBubblewrapSandbox } from './bubblewrap-sandbox.js';
export type { Sandbox, SandboxNetwork, SandboxRunRequest, SandboxRunResult } from './sandbox.js';
export { findExecutable } from './find-executable.js';
export { AGENT_CLI_SANDBOX_LIMITS, DEFAULT_SANDBOX_LIMITS, type SandboxLimitName, type SandboxLimits } from './sandbox-limits.js';
export { createUnsandboxedRunner } from './unsandboxed-runner.js';
export { copyWorkspaceFile, readWorkspaceFile, type WorkspaceFileOptions, type WorkspaceFileProblem, workspaceFileProblem } from './workspace-file.js';

export {
  ATOMIC_TEMPORARY_SUFFIX,
  type AtomicWriteData,
  type AtomicWriteOptions,
  isAtomicTemporaryFileName,
  syncDirectory,
  writeFileAtomic,
} from './atomic-file-write.js';
