import { z } from 'zod';
import type { CallPurpose } from './call-purpose.js';
import { callWarningSchema, type CallWarning } from './call-warning.js';
import type { ModelCapabilities } from './capabilities.js';
import type { DispatchAnnouncement } from './dispatch-announcement.js';
import { isModelImplementation } from './implementation-shape.js';
import { readRequest, type RequestReading } from './request-reading.js';
import { usageSchema, type Usage } from './usage.js';

/** A file placed in the agent's workspace before it starts; `path` is relative to the workspace. */
export const workspaceFileSchema = z.strictObject({
  path: z
    .string()
    .min(1)
    .refine((path) => !path.startsWith('/') && !path.split(/[\\/]/).includes('..'), {
      message: 'workspace file paths are relative and stay inside the workspace',
    }),
  content: z.union([z.string(), z.instanceof(Uint8Array)]),
});
export type WorkspaceFile = z.infer<typeof workspaceFileSchema>;

/** The data of an agent run; `signal` is checked separately since it is not data. */
export const agentRunRequestSchema = z.strictObject({
  skill: z.string(),
  prompt: z.string().min(1),
  workspace: z.string().min(1),
  files: z.array(workspaceFileSchema).optional(),
  timeoutMs: z.number().positive(),
  purpose: z.string().min(1),
  signal: z.custom<AbortSignal>((value) => value === undefined || value instanceof AbortSignal).optional(),
  onDispatch: z.custom<() => Promise<void>>((value) => value === undefined || typeof value === 'function').optional(),
  workspaceAccess: z.enum(['read', 'write']).optional(),
  allowedCommands: z.array(z.string().regex(/^[\w.+-]+$/, 'a command is a program name, without a path or arguments')).optional(),
  isolation: z.enum(['process', 'sandbox']).optional(),
  requestKey: z.string().min(1).optional(),
});

export interface AgentRunRequest {
  /** The skill document, installed where this harness reads skills (AGENTS.md, CLAUDE.md, …). */
  skill: string;
  prompt: string;
  /** An empty directory the runner may use; the caller creates and removes it. */
  workspace: string;
  files?: WorkspaceFile[] | undefined;
  timeoutMs: number;
  /** Why the run is made (`rollout`, `replay`, `judge`, `mine`, `optimize`, …), as for chat calls. */
  purpose: CallPurpose;
  signal?: AbortSignal | undefined;
  /** Awaited before the harness starts, by a runner that declares `capabilities.announcesDispatch` (see `DispatchAnnouncement`). */
  onDispatch?: DispatchAnnouncement | undefined;
  /**
   * What the agent may do to its workspace: `read` (the default) or `write`, for tasks whose answer
   * is a file the agent edits. The runner lets its harness edit the workspace only for `write`.
   */
  workspaceAccess?: 'read' | 'write' | undefined;
  /**
   * Programs the agent may run in its workspace besides reading it (`python3` for a task whose
   * answer is a workbook it computes). A runner lets its harness's shell run these where the
   * harness can limit commands, and warns (`unsupported-setting`) where it cannot.
   */
  allowedCommands?: string[] | undefined;
  /**
   * How the harness process itself is isolated. `process` (the default): a child process with the
   * environment by allowlist, confined only by the harness's own permissions. `sandbox`: also
   * inside an OS sandbox (bubblewrap) as an unprivileged user, seeing only the workspace, its own
   * install and state, with the network shared so it reaches its model. A runner that cannot do
   * this declares `capabilities.sandboxedRuns: false`, and an env that needs it refuses that runner.
   */
  isolation?: 'process' | 'sandbox' | undefined;
  /** A stable identity of the run within its training run, as `GenerateRequest.requestKey`. */
  requestKey?: string | undefined;
}

/** One event of the harness's own transcript, as it printed it (usually a parsed JSONL line). */
export type TranscriptEvent = Record<string, unknown>;

export const exitStatusSchema = z.strictObject({
  code: z.int().nullable(),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
});
export type ExitStatus = z.infer<typeof exitStatusSchema>;

export const agentRunResultSchema = z.strictObject({
  finalText: z.string(),
  transcript: z.array(z.record(z.string(), z.unknown())),
  /** `usage.estimated` is true when the harness reported no token counts. */
  usage: usageSchema,
  exitStatus: exitStatusSchema,
  /** What the runner could not honour in the request it ran. */
  warnings: z.array(callWarningSchema).optional(),
});

export interface AgentRunResult {
  finalText: string;
  transcript: TranscriptEvent[];
  usage: Usage;
  exitStatus: ExitStatus;
  warnings?: CallWarning[] | undefined;
}

/**
 * A coding-agent harness (Codex, Claude Code, Copilot, …) run as a whole agent in a workspace,
 * version 1 of the interface. A harness that crashes or times out throws a retryable
 * `ProviderError`: that is an infrastructure failure, not an answer.
 */
export interface AgentRunnerV1 {
  readonly specificationVersion: 'v1';
  readonly provider: string;
  readonly modelId: string;
  /** What it can honour; an env that needs a capability refuses a runner that declares it missing. */
  readonly capabilities?: ModelCapabilities;
  /** Runs in flight it handles well when the config sets no limit (see `ChatModelV1.defaultConcurrency`). */
  readonly defaultConcurrency?: number;
  run(request: AgentRunRequest): Promise<AgentRunResult>;
}

/** The agent runner interface of this release (an alias of the newest version). */
export type AgentRunner = AgentRunnerV1;

/** An agent run request as a runner reads it: usable, with what it did not know as warnings. */
export type AgentRunRequestReading = RequestReading<AgentRunRequest>;

/**
 * Checks a run request as `readGenerateRequest` checks a generate call: fields of the wrong type
 * are problems (throw them), fields the contract does not know are left out and become
 * `unknown-field` warnings for the result.
 */
export function readAgentRunRequest(input: unknown): AgentRunRequestReading {
  return readRequest<AgentRunRequest>(agentRunRequestSchema, input, 'runner');
}

export function isAgentRunner(value: unknown): value is AgentRunner {
  return isModelImplementation(value, 'agent-runner');
}
