import type { AgentRunner, AgentRunRequest, CallPurpose, CallWarning, RolloutContext, Usage, WorkspaceFile } from '@skillopt/contract';
import { abortable } from '@skillopt/runtime-kit';
import { agentTaskFiles } from './agent-task-file.js';
import { buildAgentTaskPrompt } from './agent-task-prompt.js';

/**
 * The longest delay a Node.js timer takes (about 24.8 days). A runner needs a time limit, so an
 * env whose own limit is 0 ("none") gives it this one; a longer one would fire at once.
 */
export const LONGEST_AGENT_TIME_LIMIT_MS = 2_147_483_647;

/** One item's task as an agent gets it. */
export interface AgentTask {
  /** The task exactly as the env's chat prompt presents it (its user message), written to `task.md`. */
  text: string;
  /** The item's own files, relative to the workspace; never a whole corpus or split folder. */
  files?: readonly WorkspaceFile[] | undefined;
  /** What the env adds to the prompt about its tasks (the answer's form, where the item's files are). */
  notes?: string | undefined;
  /**
   * The whole prompt, for a task whose answer is not a final text in `<answer>` tags (files the
   * agent writes): it replaces `buildAgentTaskPrompt`'s, and `notes` is then unused. It must name
   * `task.md`.
   */
  prompt?: string | undefined;
  /** What the agent may do beyond reading its workspace (default: nothing), as the run request says it. */
  permissions?: Pick<AgentRunRequest, 'workspaceAccess' | 'allowedCommands' | 'isolation'> | undefined;
  /** Why the run is made, for the ledger: default `rollout` (Sleep's replays say `replay`). */
  purpose?: CallPurpose | undefined;
}

/** What an agent rollout hands back to the env for scoring. */
export interface AgentTaskRun {
  /** The prompt the runner was given. */
  prompt: string;
  /** The harness's final text, to be scored with the env's chat answer extraction. */
  finalText: string;
  usage: Usage;
  /** Facts about the run for the result's `details`. */
  details: AgentTaskRunDetails;
}

// A type, not an interface, so that it spreads into a result's `details` record.
export type AgentTaskRunDetails = {
  targetKind: 'agent';
  exitCode: number | null;
  transcriptEvents: number;
  warnings?: CallWarning[];
};

/**
 * Runs one item's task on an agent runner: `task.md` and the item's files go into the rollout's
 * work directory (as the request's `files`), with the prompt of `buildAgentTaskPrompt` (or the
 * task's own), the task's permissions, the
 * rollout's skill, signal and the env's time limit (`timeoutMs`, 0 for none). A failure of the
 * runner (a crashed or timed-out harness, an empty answer) propagates as it is, as a chat model's
 * does: an infrastructure error for core to retry, never a score. An abort of the rollout
 * settles it at once, even with a runner that ignores its signal.
 */
export async function runAgentTask(
  runner: AgentRunner,
  task: AgentTask,
  context: Pick<RolloutContext, 'skill' | 'signal' | 'workDirectory'>,
  timeoutMs: number,
): Promise<AgentTaskRun> {
  const { signal, skill } = context;
  signal.throwIfAborted();
  const files = agentTaskFiles(task.text, task.files);
  const workspace = await abortable(context.workDirectory(), signal);
  const prompt = task.prompt ?? buildAgentTaskPrompt(task.notes);
  const result = await abortable(
    runner.run({
      skill,
      prompt,
      workspace,
      files,
      timeoutMs: timeoutMs > 0 ? Math.min(timeoutMs, LONGEST_AGENT_TIME_LIMIT_MS) : LONGEST_AGENT_TIME_LIMIT_MS,
      purpose: task.purpose ?? 'rollout',
      signal,
      ...task.permissions,
    }),
    signal,
  );
  const details: AgentTaskRunDetails = {
    targetKind: 'agent',
    exitCode: result.exitStatus.code,
    transcriptEvents: result.transcript.length,
    ...(result.warnings === undefined || result.warnings.length === 0 ? {} : { warnings: result.warnings }),
  };
  return { prompt, finalText: result.finalText, usage: result.usage, details };
}
