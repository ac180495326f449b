import type { AgentRunner, RolloutContext } from '@skillopt/contract';
import { type AgentTaskRun, runAgentTask } from '@skillopt/env-kit';
import type { TaskRecord } from '../tasks/task-record.js';
import { replayRequestText } from './replay-prompt.js';

/** How long one replayed task may take a harness: a developer's request, not a benchmark's. */
const AGENT_REPLAY_TIME_LIMIT_MS = 300_000;

/**
 * The prompt of a replay through an agent harness. The skill document is installed where the
 * harness reads its instructions (CLAUDE.md, AGENTS.md, …), as it is in the developer's own
 * sessions, so the prompt only points at the request; it asks for no answer format of its own,
 * since the format the developer wanted is what the learned rules are about.
 */
function agentReplayPrompt(task: TaskRecord): string {
  const framing =
    task.system.trim() !== '' ? task.system.trim() : 'You are the coding agent a developer works with. Answer their request as you would in their session.';
  return [
    framing,
    'Read `task.md` in your working directory: it holds the request.',
    'Your instruction file holds their standing instructions: follow every one that applies.',
    'Reply with your answer to the request; do not change any file.',
  ].join(' ');
}

/**
 * Replays one task through an agent harness with `document` as its skill: `task.md` holds the
 * request as the chat replay shows it, the workspace is read-only to the agent, and the run is
 * entered in the ledger as a `replay`. A crashed or timed-out harness propagates, for core to retry
 * and then exclude the task.
 */
export function replayOnAgent(runner: AgentRunner, task: TaskRecord, document: string, context: RolloutContext): Promise<AgentTaskRun> {
  return runAgentTask(
    runner,
    { text: replayRequestText(task), prompt: agentReplayPrompt(task), purpose: 'replay' },
    { skill: document, signal: context.signal, workDirectory: context.workDirectory },
    AGENT_REPLAY_TIME_LIMIT_MS,
  );
}
