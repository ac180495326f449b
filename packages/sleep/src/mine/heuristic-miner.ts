import { createHash } from 'node:crypto';
import type { HarvestedSession } from '../harvest/session-record.js';
import type { TaskRecord } from '../tasks/task-record.js';
import { cutText, lastAssistantReply, sessionSkillHint, userPrompts } from './session-facts.js';
import { sessionOutcome } from './session-outcome.js';

export interface HeuristicMineOptions {
  /** Stop after this many tasks. */
  maxTasks: number;
}

/** Prompts shorter than this are greetings or commands, not tasks. */
export const MIN_INTENT_CHARACTERS = 8;
const INTENT_CHARACTERS = 800;
const FOLLOW_UP_CHARACTERS = 200;
const CONTEXT_CHARACTERS = 600;
const ATTEMPT_CHARACTERS = 600;
const FOLLOW_UPS_KEPT = 3;
const TOOLS_TAGGED = 4;

/** The id of a session's task: the same first prompt in the same project is the same task, night after night. */
export function heuristicTaskId(project: string, firstPrompt: string): string {
  return `task_${createHash('sha256').update(`${project}::${firstPrompt}`).digest('hex').slice(0, 12)}`;
}

function followUpContext(prompts: readonly string[]): string {
  const followUps = prompts.slice(1, 1 + FOLLOW_UPS_KEPT);
  if (followUps.length === 0) return '';
  const lines = ['The developer followed up with:', ...followUps.map((prompt) => `- ${cutText(prompt, FOLLOW_UP_CHARACTERS)}`)];
  return cutText(lines.join('\n'), CONTEXT_CHARACTERS);
}

function sessionTags(session: HarvestedSession): string[] {
  const tools = [...new Set(session.toolCalls.map((call) => call.name))].slice(0, TOOLS_TAGGED);
  const tags = tools.length > 0 ? [`tools:${tools.join('+')}`] : [];
  if (session.gitBranch !== undefined && session.gitBranch !== '') tags.push(`branch:${session.gitBranch}`);
  return tags;
}

/**
 * One task per session, without a model: its first prompt as the request, the follow-ups as
 * context, the last reply as what was tried, and the outcome its signals tell. Such tasks carry no
 * reference, so a night can replay them but not learn from them: the LLM miner is the one that
 * writes checks and rubrics.
 */
export function heuristicMine(sessions: readonly HarvestedSession[], options: HeuristicMineOptions): TaskRecord[] {
  const tasks: TaskRecord[] = [];
  for (const session of sessions) {
    if (tasks.length >= options.maxTasks) break;
    const prompts = userPrompts(session);
    const firstPrompt = prompts[0];
    if (firstPrompt === undefined || firstPrompt.trim().length < MIN_INTENT_CHARACTERS) continue;
    tasks.push({
      id: heuristicTaskId(session.project, firstPrompt),
      project: session.project,
      intent: cutText(firstPrompt, INTENT_CHARACTERS),
      contextExcerpt: followUpContext(prompts),
      system: '',
      attemptedSolution: cutText(lastAssistantReply(session), ATTEMPT_CHARACTERS),
      outcome: sessionOutcome(session),
      referenceKind: 'none',
      reference: '',
      tags: sessionTags(session),
      sourceSessions: [session.sessionId],
      split: 'train',
      origin: 'real',
      derivedFrom: '',
      skillHint: sessionSkillHint(session),
    });
  }
  return tasks;
}
