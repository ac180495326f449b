import {
  EMPTY_USAGE,
  ProviderError,
  type AgentRunner,
  type AgentRunResult,
  type Edit,
  type ScoredRollout,
  type Usage,
  type WorkspaceFile,
} from '@skillopt/contract';
import { readWorkspaceFile, workspaceFileProblem } from '@skillopt/runtime-kit';
import { withAgentRationales } from './agent-summary.js';
import agentOptimize from './prompts/agent-optimize.md';
import type { PromptContext } from './prompt-sections.js';
import { classifyResults } from './result-classification.js';
import { editsFromRevision, type RefusedChange, type RevisionChange } from './skill-revision.js';
import type { StageResult } from './stage-result.js';
import { renderTemplate } from './template-renderer.js';
import { renderTrajectories } from './trajectory-rendering.js';

/** The file the agent edits, relative to its workspace. */
export const AGENT_SKILL_FILE = 'skill.md';

/** The largest revised skill read back: far beyond any skill a prompt can hold. */
const AGENT_SKILL_MAX_BYTES = 1024 * 1024;

/** What the agent optimizer's harness runs with: its runner, its workspace and its time. */
export interface AgentOptimizerRun {
  /** A harness backend's agent runner (metered by the caller: the run is `purpose: optimize`). */
  runner: AgentRunner;
  /** An empty directory for this step's run; the caller creates and removes it. */
  workspace: string;
  timeoutMs: number;
}

export interface AgentEditOptions extends PromptContext {
  agent: AgentOptimizerRun;
  signal: AbortSignal;
  skill: string;
  results: readonly ScoredRollout[];
  /** The most separate changes the agent is asked for (the learning rate's ceiling). */
  maxEdits: number;
  /** Show the agent the failed trajectories only. */
  failureOnly: boolean;
}

/** What the agent did, for the step's artifacts. */
export interface AgentEditRecord {
  finalText: string;
  transcript: AgentRunResult['transcript'];
  exitStatus: AgentRunResult['exitStatus'];
  /** The agent's copy of the skill when it finished. */
  revisedSkill: string;
  /** Its changes as edits (with the reasons its summary gave), in the revised copy's order. */
  changes: RevisionChange[];
  refused: RefusedChange[];
}

export interface AgentEdits {
  /** The edits, most recent position last; each carries the agent's reason. */
  edits: Edit[];
  /** Each edit's position in the revised copy (same order as `edits`). */
  positions: number[];
  record: AgentEditRecord;
}

/**
 * The `optimize` stage: the agent gets a workspace with the step's trajectories as files and a
 * copy of the skill, edits the copy with its own tools (write access is asked for), and its
 * revision is read back as edits. A harness that timed out or crashed (a retryable provider
 * error), a copy left unchanged, removed or as anything but a regular file (read as data: a link
 * is never followed), and a revision whose every change was refused are a
 * failed stage, as an unusable reply is; an abort and any other error are thrown.
 */
export async function proposeEditsByAgent(options: AgentEditOptions): Promise<StageResult<AgentEdits> & { record?: AgentEditRecord }> {
  const { agent, skill } = options;
  let result: AgentRunResult;
  try {
    result = await agent.runner.run({
      ...agentOptimizerRequest(options),
      workspace: agent.workspace,
      timeoutMs: agent.timeoutMs,
      purpose: 'optimize',
      signal: options.signal,
      workspaceAccess: 'write',
    });
  } catch (error) {
    if (options.signal.aborted || !ProviderError.isInstance(error) || !error.retryable) throw error;
    return failed(`the agent's harness failed: ${error.message}`, 1, EMPTY_USAGE);
  }
  // The run has ended, its harness with it: skill.md is read as data, never followed as a path.
  const revision = await readRevisedSkill(agent.workspace);
  const partial = { finalText: result.finalText, transcript: result.transcript, exitStatus: result.exitStatus };
  if ('unreadable' in revision) return { ...failed(revision.unreadable, 1, result.usage), record: { ...partial, revisedSkill: '', changes: [], refused: [] } };
  const { revisedSkill } = revision;
  const edited = editsFromRevision(skill, revisedSkill);
  const explained = withAgentRationales(
    edited.changes.map((change) => change.edit),
    result.finalText,
  );
  const sourced = sourceOf(options);
  const changes = edited.changes.map((change, index) => ({
    edit: { ...(explained[index] ?? change.edit), support: sourced.support, ...(sourced.source ? { source: sourced.source } : {}) },
    position: change.position,
  }));
  const record: AgentEditRecord = { ...partial, revisedSkill, changes, refused: edited.refused };
  if (changes.length === 0) {
    const reason =
      edited.refused.length > 0
        ? `every change the agent made to ${AGENT_SKILL_FILE} was refused (${edited.refused.map((refused) => refused.reason).join('; ')})`
        : `the agent left ${AGENT_SKILL_FILE} unchanged`;
    return { ...failed(reason, 1, result.usage), record };
  }
  return {
    ok: true,
    value: {
      edits: changes.map((change) => change.edit),
      positions: changes.map((change) => change.position),
      record,
    },
    attempts: 1,
    usage: result.usage,
  };
}

/**
 * The agent's copy of the skill, or why it cannot be read: removed, or left as something other
 * than a regular file of the workspace (a link to a file of the host, a hard link, a FIFO).
 */
async function readRevisedSkill(workspace: string): Promise<{ revisedSkill: string } | { unreadable: string }> {
  try {
    return { revisedSkill: (await readWorkspaceFile(workspace, AGENT_SKILL_FILE, { maxBytes: AGENT_SKILL_MAX_BYTES })).toString('utf8') };
  } catch (error) {
    const problem = workspaceFileProblem(error);
    if (problem === undefined) throw error;
    return { unreadable: problem === 'missing' ? `the agent removed ${AGENT_SKILL_FILE}` : `the agent's ${(error as Error).message}` };
  }
}

function failed(reason: string, attempts: number, usage: Usage) {
  return { ok: false as const, stage: 'optimize' as const, reason, attempts, usage };
}

/** Every edit read the same trajectories: its support is how many of them failed, as a reflection's is. */
function sourceOf(options: AgentEditOptions): { support: number; source?: Edit['source'] } {
  const { failed: failures, succeeded } = classifyResults(options.results);
  const shownSuccesses = options.failureOnly ? 0 : succeeded.length;
  if (failures.length > 0) return { support: failures.length, source: shownSuccesses > 0 ? 'mixed' : 'failure' };
  return { support: shownSuccesses, ...(shownSuccesses > 0 ? { source: 'success' as const } : {}) };
}

interface WorkspaceEntry {
  file: WorkspaceFile;
  description: string;
}

/** What the agent's workspace is made from: the skill, the trajectories, the rejected edits. */
type AgentWorkspaceSource = Pick<AgentEditOptions, 'skill' | 'results' | 'maxEdits' | 'failureOnly' | 'rejectedEdits' | 'metaSkill'>;

function workspaceEntries(options: AgentWorkspaceSource): WorkspaceEntry[] {
  const { failed: failures, succeeded } = classifyResults(options.results);
  const entries: WorkspaceEntry[] = [{ file: { path: AGENT_SKILL_FILE, content: options.skill }, description: 'the current skill: edit this file in place' }];
  if (failures.length > 0)
    entries.push({
      file: { path: 'trajectories/failed.md', content: `${renderTrajectories(failures)}\n` },
      description: `${failures.length} trajectories in which the agent FAILED, each with its final answer, the reference answer where the task has one, and its turns`,
    });
  if (!options.failureOnly && succeeded.length > 0)
    entries.push({
      file: { path: 'trajectories/succeeded.md', content: `${renderTrajectories(succeeded)}\n` },
      description: `${succeeded.length} trajectories in which the agent succeeded`,
    });
  if (options.rejectedEdits !== undefined && options.rejectedEdits.trim() !== '')
    entries.push({
      file: { path: 'rejected-edits.md', content: `${options.rejectedEdits.trim()}\n` },
      description: 'edits tried in earlier steps that made the skill score worse on held-out tasks',
    });
  return entries;
}

/**
 * The agent's run, but for its workspace and time: its own skill (the optimizer's strategy notes,
 * when there are any), the files of its workspace, and its instructions (what is in the workspace,
 * how to work, and the summary to end with).
 */
export function agentOptimizerRequest(options: AgentWorkspaceSource): { skill: string; prompt: string; files: WorkspaceFile[] } {
  const entries = workspaceEntries(options);
  const hasRejected = entries.some((entry) => entry.file.path === 'rejected-edits.md');
  const prompt = renderTemplate(agentOptimize, {
    fileList: entries.map((entry) => `- \`${entry.file.path}\`: ${entry.description}.`).join('\n'),
    maxEdits: String(options.maxEdits),
    rejectedInstruction: hasRejected
      ? '5. Do not make again a change listed in `rejected-edits.md`, nor a close variant of one: each made the skill worse.\n'
      : '',
  });
  return { skill: options.metaSkill ?? '', prompt, files: entries.map((entry) => entry.file) };
}
