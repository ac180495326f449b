import path from 'node:path';
import {
  ERROR_CODES,
  isSecretKey,
  ProviderError,
  readAgentRunRequest,
  redactSecretText,
  SkillOptError,
  type AgentRunner,
  type AgentRunRequest,
  type AgentRunResult,
  type CallWarning,
  type TranscriptEvent,
} from '@skillopt/contract';
import { abortReason, runProcess, type ProcessResult } from '@skillopt/runtime-kit';
import type { HarnessCommandLine, HarnessDefinition, HarnessReportedFailure, TranscriptOutcome } from './harness-definition.js';
import { providerErrorFromProcessResult } from './process-failure.js';
import { type HarnessProcessOptions, sharedAgentCliSandbox, startInSandbox } from './sandboxed-harness.js';
import { estimateUsage } from './token-estimate.js';
import { createTranscriptRecorder } from './transcript-recorder.js';
import { requireWorkspaceDirectory, writeWorkspaceFiles } from './workspace-files.js';

const DEFAULT_MAX_OUTPUT_BYTES = 10 * 1024 * 1024;
const DEFAULT_MAX_TRANSCRIPT_BYTES = 1024 * 1024;
const DEFAULT_TERMINATION_GRACE_MS = 5_000;
const MALFORMED_LINE_EXCERPT = 120;

/**
 * One agent run, the way every CLI harness runs: in the caller's workspace (which it neither
 * creates nor removes, and where it leaves what the agent wrote for the caller to read):
 *
 * 1. the request is read tolerantly (an unknown field becomes a warning);
 * 2. the request's files are written, then the skill is installed by the harness's strategy;
 * 3. the harness is started through `runProcess` with the prompt on stdin, the environment by
 *    allowlist, capped output, and the request's time limit on its whole process group (an abort
 *    kills it at once and rejects with the signal's reason); with `isolation: 'sandbox'` the same
 *    start goes through bubblewrap instead (see `startInSandbox`), and a machine that cannot
 *    sandbox fails with `sandbox-unavailable` before anything is written;
 * 4. every JSON line of its stdout goes to the harness's transcript reader and, scrubbed and
 *    size-capped, into the kept transcript;
 * 5. failures are errors, never answers: a timeout is a retryable `process-timeout`, a crash or an
 *    unexpected exit a retryable `process-crashed` (or what the harness reported), an empty answer
 *    a retryable `reply-empty`; no secret of the run reaches a message;
 * 6. usage is the harness's report, or estimated from the text and marked `estimated`.
 */
export async function runAgentHarness(definition: HarnessDefinition, received: AgentRunRequest): Promise<AgentRunResult> {
  const reading = readAgentRunRequest(received);
  if (!reading.ok)
    throw new SkillOptError({
      code: ERROR_CODES.dataInvalid,
      category: 'internal',
      message: `${definition.provider} ${definition.modelId}: an invalid agent run request: ${reading.problems.join('; ')}`,
    });
  const request = reading.request;
  const warnings: CallWarning[] = [...reading.warnings];
  if (request.allowedCommands !== undefined && definition.limitsCommands !== true)
    warnings.push({
      type: 'unsupported-setting',
      field: 'allowedCommands',
      message: `${definition.provider} cannot limit the commands its agent runs: its shell may run any program, not only ${request.allowedCommands.join(', ') || 'none'}`,
    });
  if (request.signal?.aborted) throw abortReason(request.signal);
  const sandbox = request.isolation === 'sandbox' ? await (definition.sandbox ?? sharedAgentCliSandbox)() : undefined;

  await requireWorkspaceDirectory(request.workspace);
  await writeWorkspaceFiles(request.workspace, request.files ?? []);
  const skillFiles = await definition.skillInstallation.install(request.skill, request.workspace);
  const commandLine = await definition.commandLine({ request, workspace: request.workspace, skillFiles });
  const secrets = secretsOf(commandLine);
  const scrub = (text: string): string => redactSecretText(text, secrets);

  const translation = definition.readTranscript();
  const recorder = createTranscriptRecorder({ maxBytes: definition.maxTranscriptBytes ?? DEFAULT_MAX_TRANSCRIPT_BYTES, secrets });
  const malformed: Array<{ lineNumber: number; text: string }> = [];
  let lineNumber = 0;
  const onStdoutLine = (line: string): void => {
    lineNumber += 1;
    if (line.trim() === '') return;
    const event = parseEventLine(line);
    if (event === undefined) {
      malformed.push({ lineNumber, text: line });
      return;
    }
    translation.readEvent(event);
    recorder.push(event);
  };

  const processOptions: HarnessProcessOptions = {
    stdin: commandLine.stdin ?? request.prompt,
    timeoutMs: request.timeoutMs,
    terminationGraceMs: definition.terminationGraceMs ?? DEFAULT_TERMINATION_GRACE_MS,
    // An aborted run is abandoned: nothing it would flush is read, so it is killed at once.
    abortGraceMs: 0,
    maxOutputBytes: definition.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    onStdoutLine,
    ...(request.signal ? { signal: request.signal } : {}),
  };
  const start = (): Promise<ProcessResult> =>
    sandbox
      ? startInSandbox(sandbox, definition.provider, commandLine, request.workspace, processOptions)
      : runProcess({
          ...processOptions,
          command: commandLine.command,
          args: commandLine.args,
          cwd: request.workspace,
          allowedEnvironmentVariables: commandLine.allowedEnvironmentVariables ?? ['PATH', 'HOME'],
          extraEnvironmentVariables: commandLine.environment ?? {},
          provider: definition.provider,
        });
  const result = definition.rateLimiter ? await definition.rateLimiter.run(() => start(), request.signal ? { signal: request.signal } : {}) : await start();

  const outcome = translation.finish();
  if (malformed.length > 0) warnings.push(malformedLinesWarning(malformed, scrub));
  if (recorder.shortened)
    warnings.push({
      type: 'other',
      message: 'the transcript was longer than the limit kept for a run; its middle (or an oversized event) was left out and marked',
    });
  const exitStatus = { code: result.exitCode, signal: result.signal, timedOut: result.timedOut };

  const failure = failureOf(definition, commandLine, result, outcome, scrub);
  if (failure) throw failure;
  const finalText = (outcome.finalText ?? '').trim();
  return {
    finalText,
    transcript: recorder.events(),
    usage: outcome.usage ?? estimateUsage(`${request.skill}\n${request.prompt}`, finalText),
    exitStatus,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** An AgentRunner (specification v1) whose every run is `runAgentHarness(definition, request)`. */
export function createHarnessRunner(definition: HarnessDefinition): AgentRunner {
  return {
    specificationVersion: 'v1',
    provider: definition.provider,
    modelId: definition.modelId,
    ...(definition.capabilities ? { capabilities: definition.capabilities } : {}),
    run: (request) => runAgentHarness(definition, request),
  };
}

/** The values no message or kept transcript may contain. */
function secretsOf(commandLine: HarnessCommandLine): string[] {
  const fromEnvironment = Object.entries(commandLine.environment ?? {})
    .filter(([name]) => isSecretKey(name))
    .map(([, value]) => value);
  return [...fromEnvironment, ...(commandLine.secrets ?? [])].filter((value) => value.length > 0);
}

function parseEventLine(line: string): TranscriptEvent | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as TranscriptEvent) : undefined;
  } catch {
    return undefined;
  }
}

function malformedLinesWarning(lines: ReadonlyArray<{ lineNumber: number; text: string }>, scrub: (text: string) => string): CallWarning {
  const first = lines[0] as { lineNumber: number; text: string };
  const excerpt = scrub(first.text.length > MALFORMED_LINE_EXCERPT ? `${first.text.slice(0, MALFORMED_LINE_EXCERPT)}…` : first.text);
  const count = lines.length === 1 ? '1 line' : `${lines.length} lines`;
  return {
    type: 'other',
    message: `${count} of the harness's output were not JSON objects and were left out of the transcript (the first, line ${first.lineNumber}: ${excerpt})`,
  };
}

/** The error a run that gave no answer ends with, or undefined when it answered. */
function failureOf(
  definition: HarnessDefinition,
  commandLine: HarnessCommandLine,
  result: ProcessResult,
  outcome: TranscriptOutcome,
  scrub: (text: string) => string,
): ProviderError | undefined {
  const command = path.basename(commandLine.command);
  const details = { exitCode: result.exitCode, signal: result.signal, timedOut: result.timedOut, durationMs: result.durationMs };
  // The stderr quoted in a message is scrubbed first: a CLI may print its environment when it dies.
  const scrubbedResult = { ...result, stderr: scrub(result.stderr) };
  if (result.timedOut) return providerErrorFromProcessResult(scrubbedResult, { provider: definition.provider, command });
  const processFailure = providerErrorFromProcessResult(scrubbedResult, {
    provider: definition.provider,
    command,
    ...(commandLine.successExitCodes ? { successExitCodes: commandLine.successExitCodes } : {}),
  });
  if (outcome.failure) return reportedFailure(definition, command, outcome.failure, processFailure, details, scrub);
  if (processFailure) return processFailure;
  if ((outcome.finalText ?? '').trim() === '')
    return new ProviderError({
      code: ERROR_CODES.replyEmpty,
      provider: definition.provider,
      retryable: true,
      message: `${command} (${definition.modelId}) finished without a final answer`,
      details,
    });
  return undefined;
}

function reportedFailure(
  definition: HarnessDefinition,
  command: string,
  failure: HarnessReportedFailure,
  processFailure: ProviderError | undefined,
  details: Record<string, unknown>,
  scrub: (text: string) => string,
): ProviderError {
  const how = processFailure ? processFailure.message : `${command} exited as if it had finished`;
  return new ProviderError({
    code: failure.code ?? ERROR_CODES.processCrashed,
    provider: definition.provider,
    retryable: failure.retryable ?? true,
    message: scrub(`${command} reported: ${failure.message} (${how})`),
    details,
  });
}
