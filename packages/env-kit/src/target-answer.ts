import type { RolloutContext, Usage, UserMessage } from '@skillopt/contract';
import { type AgentTask, runAgentTask } from './agent-task.js';
import { generateWithin } from './target-call-within.js';

/** One item asked of the rollout's target in the form each kind takes it. */
export interface SingleAnswerTask {
  /** For a chat model: one call of this system prompt and user message. */
  chat: { system: string; user: UserMessage['content']; maxOutputTokens: number };
  /** For an agent: one run on this task (its text the chat user message's, as `task.md`). */
  agent: AgentTask;
}

/** The target's answer to one item, whichever kind it is. */
export interface TargetAnswer {
  /** The reply of the chat model or the final text of the agent: what the env scores. */
  text: string;
  usage: Usage;
  /** How it came, for the result's `details`: the chat call's finish reason and turns, or the agent run's facts. */
  details: Record<string, unknown>;
}

/**
 * Asks the rollout's target once, within `timeoutMs` (the env's `exec_timeout`; 0 for none): a
 * chat model through `generateWithin`, an agent through `runAgentTask`. For envs whose items take
 * one answer; their errors propagate as those two let them, never as a score.
 */
export async function answerOnce(task: SingleAnswerTask, context: RolloutContext, timeoutMs: number): Promise<TargetAnswer> {
  const { target } = context;
  if (target.kind === 'agent') {
    const run = await runAgentTask(target.runner, task.agent, context, timeoutMs);
    return { text: run.finalText, usage: run.usage, details: run.details };
  }
  const reply = await generateWithin(
    target.model,
    {
      messages: [
        { role: 'system', content: task.chat.system },
        { role: 'user', content: task.chat.user },
      ],
      maxOutputTokens: task.chat.maxOutputTokens,
      purpose: 'rollout',
    },
    context.signal,
    timeoutMs,
  );
  return { text: reply.text, usage: reply.usage, details: { finishReason: reply.finishReason, turns: 1 } };
}
