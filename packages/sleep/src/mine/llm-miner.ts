import { createHash } from 'node:crypto';
import { AnswerPendingError, type ChatModel, type Message } from '@skillopt/contract';
import { combinedAnswerPending } from '@skillopt/core';
import { parseStructuredReply } from '@skillopt/optimizer';
import { z } from 'zod';
import type { HarvestedSession, OutcomeSignal } from '../harvest/session-record.js';
import { characterBound } from '../tasks/character-bound.js';
import type { RuleCheck, TaskRecord } from '../tasks/task-record.js';
import { MIN_INTENT_CHARACTERS } from './heuristic-miner.js';
import { cutText, lastAssistantReply, sessionSkillHint, userPrompts } from './session-facts.js';

export interface LlmMinerOptions {
  model: ChatModel;
  /** Sessions (with prompts) asked about, in order; the rest are left to the heuristic miner's nights. */
  maxSessions: number;
  /** Stop once this many tasks are mined. */
  maxTasks: number;
}

/** A session whose replies could not be read, even after one re-ask. */
export interface SessionMiningFailure {
  sessionId: string;
  reason: string;
}

export interface LlmMining {
  tasks: TaskRecord[];
  failures: SessionMiningFailure[];
}

export type LlmMiner = (sessions: readonly HarvestedSession[], signal?: AbortSignal) => Promise<LlmMining>;

const TASKS_PER_SESSION = 3;
const PROMPTS_SHOWN = 6;
const PROMPT_CHARACTERS = 240;
const FINAL_CHARACTERS = 400;
const SIGNALS_SHOWN = 6;
const MAX_OUTPUT_TOKENS = 800;
/** Ops whose argument is text that must not be blank. */
const TEXT_OPS = new Set(['section_present', 'section_contains', 'regex', 'contains', 'not_contains', 'tool_called']);
const BOUND_OPS = new Set(['max_chars', 'min_chars']);

// Any array parses: each element is cleaned on its own, so one bad candidate costs only itself.
const replySchema = z.array(z.unknown());

function describeSignal(signal: OutcomeSignal): string {
  if (signal.kind === 'user-feedback') return `${signal.polarity}: ${signal.phrase}`;
  if (signal.kind === 'turn-error') return `error: ${signal.detail}`;
  return `${signal.verifier} ${signal.passed ? 'passed' : 'failed'}`;
}

function minerPrompt(session: HarvestedSession): string {
  const prompts = userPrompts(session).slice(0, PROMPTS_SHOWN);
  const promptLines = prompts.length > 0 ? prompts.map((prompt) => `  - ${cutText(prompt, PROMPT_CHARACTERS)}`).join('\n') : '(none)';
  const final = lastAssistantReply(session);
  const signals = session.outcomeSignals.slice(0, SIGNALS_SHOWN).map(describeSignal);
  return [
    'You read one session a developer had with a coding agent and pick out up to three tasks worth',
    'practising: requests likely to come back in this project, stated so they make sense on their own.',
    'For each task give:',
    '- "intent": the request, in the words a developer would use;',
    '- "rubric": one sentence on what a good answer must get right (its substance, not its layout);',
    '- "checks": rule checks [{"op": …, "arg": …}] an answer must pass. Prefer checks on content:',
    '  contains, not_contains, regex, tool_called, no_refusal (arg null). Checks on layout',
    '  (section_present, section_contains, max_chars, min_chars) only next to a content check;',
    '- "satisfied": true when the session ended with the developer getting what they asked for.',
    'Reply with a JSON array and nothing else; [] when the session holds no such task.',
    '',
    `# Project\n${session.project || '(unknown)'}`,
    `# Developer prompts\n${promptLines}`,
    `# Last agent reply\n${final === '' ? '(none)' : cutText(final, FINAL_CHARACTERS)}`,
    `# Signals\n${signals.length > 0 ? signals.join(', ') : '(none)'}`,
  ].join('\n');
}

function cleanCheck(candidate: unknown): RuleCheck | undefined {
  if (typeof candidate !== 'object' || candidate === null) return undefined;
  const { op, arg } = candidate as { op?: unknown; arg?: unknown };
  if (typeof op !== 'string') return undefined;
  if (TEXT_OPS.has(op)) {
    if (typeof arg !== 'string') return undefined;
    // A regex's spaces are part of the pattern; everywhere else they are slips of the model.
    const text = op === 'regex' ? arg : arg.trim();
    return text.trim() === '' ? undefined : { op, arg: text };
  }
  if (BOUND_OPS.has(op)) {
    const bound = characterBound(arg);
    return bound === undefined || bound < 0 ? undefined : { op, arg: bound };
  }
  return op === 'no_refusal' ? { op, arg: null } : undefined;
}

/** A candidate the model proposed as a task, or undefined when it is too short or cannot be judged. */
export function llmCandidateTask(candidate: unknown, session: HarvestedSession): TaskRecord | undefined {
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) return undefined;
  const fields = candidate as { intent?: unknown; checks?: unknown; rubric?: unknown; satisfied?: unknown };
  const intent = typeof fields.intent === 'string' ? fields.intent.trim() : '';
  if (intent.length < MIN_INTENT_CHARACTERS) return undefined;
  const checks = Array.isArray(fields.checks) ? fields.checks.map(cleanCheck).filter((check) => check !== undefined) : [];
  const rubric = typeof fields.rubric === 'string' ? fields.rubric.trim() : '';
  if (rubric === '' && checks.length === 0) return undefined;
  return {
    // No separator between project and intent: the original's ids, kept so its task files still match.
    id: `llm_${createHash('sha256').update(`${session.project}${intent}`).digest('hex').slice(0, 12)}`,
    project: session.project,
    intent,
    contextExcerpt: '',
    system: '',
    attemptedSolution: '',
    outcome: fields.satisfied === true ? 'success' : 'fail',
    // A rubric judges substance; literal checks can be gamed by the skill, so the rubric wins.
    referenceKind: rubric !== '' ? 'rubric' : 'rule',
    reference: rubric,
    ...(rubric === '' ? { judge: { kind: 'rule' as const, checks } } : {}),
    tags: ['mined:llm'],
    sourceSessions: [session.sessionId],
    split: 'train',
    origin: 'real',
    derivedFrom: '',
    skillHint: sessionSkillHint(session),
  };
}

async function askForCandidates(
  model: ChatModel,
  session: HarvestedSession,
  signal: AbortSignal | undefined,
): Promise<{ ok: true; candidates: unknown[] } | { ok: false; reason: string }> {
  const messages: Message[] = [{ role: 'user', content: minerPrompt(session) }];
  let reason = '';
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    const reply = await model.generate({
      messages: [...messages],
      maxOutputTokens: MAX_OUTPUT_TOKENS,
      purpose: 'mine',
      ...(signal === undefined ? {} : { signal }),
    });
    const parsed = parseStructuredReply(reply.text, replySchema);
    if (parsed.ok) return { ok: true, candidates: parsed.value };
    reason = parsed.reason;
    messages.push({ role: 'assistant', content: reply.text });
    messages.push({ role: 'user', content: `Your reply could not be used: ${reason}. Reply again with only the JSON array.` });
  }
  return { ok: false, reason: `no usable reply after 2 attempts: ${reason}` };
}

/**
 * A miner that asks a model for the tasks in each session and keeps those it can judge. A reply is
 * read by balanced JSON scanning, not the original's first-bracket-to-last-bracket cut, which broke
 * on a reply with two JSON blocks or brackets in trailing prose (upstream-sleep §9 item 11). A reply
 * that still cannot be read after one re-ask is reported as that session's failure rather than
 * passed off as a session with nothing in it. Provider errors are thrown. A session whose request
 * waits for an answer (the handoff backend) does not stop the others: their requests are written
 * too, then the waiting ones are thrown as one.
 */
export function createLlmMiner(options: LlmMinerOptions): LlmMiner {
  return async (sessions, signal) => {
    const tasks: TaskRecord[] = [];
    const failures: SessionMiningFailure[] = [];
    const waiting: AnswerPendingError[] = [];
    const asked = sessions.filter((session) => userPrompts(session).length > 0).slice(0, options.maxSessions);
    for (const session of asked) {
      if (tasks.length >= options.maxTasks) break;
      const answer = await askForCandidates(options.model, session, signal).catch((error: unknown) => {
        if (!AnswerPendingError.isInstance(error)) throw error;
        // The other sessions are asked all the same: every request of one mining waits at once, not one per run.
        waiting.push(error);
        return undefined;
      });
      if (answer === undefined) continue;
      if (!answer.ok) {
        failures.push({ sessionId: session.sessionId, reason: answer.reason });
        continue;
      }
      for (const candidate of answer.candidates.slice(0, TASKS_PER_SESSION)) {
        if (tasks.length >= options.maxTasks) break;
        const task = llmCandidateTask(candidate, session);
        if (task !== undefined) tasks.push(task);
      }
    }
    if (waiting.length > 0) throw combinedAnswerPending(waiting);
    return { tasks, failures };
  };
}
