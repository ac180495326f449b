import { redactSecretText } from '@skillopt/contract/secret-redaction';
import { detectFeedback, type FeedbackLexicon } from './feedback-signals.js';
import type { SkipReason, SourceReportRecorder } from './harvest-report.js';
import { isMetaPrompt } from './meta-prompt.js';
import { ownSessionReason } from './own-sessions.js';
import { isInScope, type ProjectScope, scopeProjectOf } from './project-scope.js';
import { type HarvestedSession, type OutcomeSignal, SESSION_RECORD_FORMAT, type SessionToolCall, type SessionTurn, type SourceId } from './session-record.js';
import { cleanToolName, clipText, type TextLimits } from './text-limits.js';
import type { TimeWindow } from './time-window.js';
import { isoTime, toEpochMilliseconds } from './timestamps.js';

/** What every session builder of one harvest shares. */
export interface SessionRules {
  scope: ProjectScope;
  window: TimeWindow;
  limits: TextLimits;
  lexicon: FeedbackLexicon;
  environment: Readonly<Record<string, string | undefined>>;
  /** Secrets this process holds, cut out wherever they appear. */
  knownSecrets: readonly string[];
  report: SourceReportRecorder;
}

/**
 * Collects one session as a source reads it, and turns it into a record — or into a counted skip —
 * by the same rules for every source: secrets cut out of every text before it is clipped or kept,
 * commands and pasted blobs dropped, feedback read from each prompt, the developer's own work
 * only, in scope, in the window.
 */
export interface SessionBuilder {
  /** The folder the session ran in; the first one given wins. */
  project(folder: string | undefined): void;
  branch(name: string | undefined): void;
  /** A time the source recorded for the session (ISO text, epoch s or ms). */
  time(value: unknown): void;
  userPrompt(text: string, timestamp?: unknown): void;
  /** One assistant turn; `text` is its visible reply, if any. */
  assistantTurn(text?: string, timestamp?: unknown): void;
  toolCall(name: string): void;
  skill(name: string): void;
  file(path: string): void;
  signal(signal: OutcomeSignal): void;
  /**
   * Rejects the whole session: a source's strict format check failed, or the source found a mark of
   * Sleep's own session where only it can look (a later prompt; the first one the builder checks).
   */
  reject(reason: 'malformed' | 'own-session'): void;
  /** The record, or undefined when it was skipped (the reason counted in the report). */
  finish(fallbackTime?: unknown): HarvestedSession | undefined;
}

function uniquePush(list: string[], value: string, limit: number): void {
  if (value !== '' && list.length < limit && !list.includes(value)) list.push(value);
}

export function createSessionBuilder(source: SourceId, sessionId: string, location: string, rules: SessionRules): SessionBuilder {
  const { limits } = rules;
  let project = '';
  let gitBranch: string | undefined;
  let firstTime: number | undefined;
  let lastTime: number | undefined;
  let firstRawPrompt: string | undefined;
  let rejected: SkipReason | undefined;
  const turns: SessionTurn[] = [];
  const toolCalls: SessionToolCall[] = [];
  const skillsUsed: string[] = [];
  const filesTouched: string[] = [];
  const outcomeSignals: OutcomeSignal[] = [];
  let userTurnCount = 0;
  let assistantTurnCount = 0;
  let keptUserTurns = 0;
  // The reply that closes the current exchange: replaced by each later reply until the next prompt.
  let pendingReply: { text: string; time: number | undefined } | undefined;

  const clean = (text: string) => clipText(redactSecretText(text.replace(/\0/g, ''), rules.knownSecrets), limits.maxTextCharacters);
  const noteTime = (value: unknown) => {
    const time = toEpochMilliseconds(value);
    if (time === undefined) return undefined;
    if (firstTime === undefined || time < firstTime) firstTime = time;
    if (lastTime === undefined || time > lastTime) lastTime = time;
    return time;
  };
  const flushReply = () => {
    if (pendingReply === undefined) return;
    // Only the reply that closes an exchange is kept, so only it is cleaned: redacting every reply
    // as it came was most of the harvest's time on long agent sessions.
    const { text, time } = pendingReply;
    turns.push({ role: 'assistant', text: clean(text), ...(time === undefined ? {} : { timestamp: isoTime(time) }) });
    pendingReply = undefined;
    // Keep the newest replies: drop the oldest assistant turn once over the limit.
    if (turns.filter((turn) => turn.role === 'assistant').length > limits.maxAssistantTurns) {
      turns.splice(
        turns.findIndex((turn) => turn.role === 'assistant'),
        1,
      );
    }
  };
  const skip = (reason: SkipReason) => {
    rules.report.sessionSkipped(reason);
    return undefined;
  };

  return {
    project(folder) {
      if (project === '' && typeof folder === 'string' && folder.trim() !== '') project = folder.trim();
    },
    branch(name) {
      if (gitBranch === undefined && typeof name === 'string' && name.trim() !== '') gitBranch = name.trim();
    },
    time(value) {
      noteTime(value);
    },
    userPrompt(text, timestamp) {
      const time = noteTime(timestamp);
      userTurnCount += 1;
      if (firstRawPrompt === undefined) firstRawPrompt = text;
      if (isMetaPrompt(text)) return;
      flushReply();
      const cleaned = clean(text);
      outcomeSignals.push(...detectFeedback(cleaned, userTurnCount, rules.lexicon));
      if (keptUserTurns >= limits.maxUserTurns) return;
      keptUserTurns += 1;
      turns.push({ role: 'user', text: cleaned, ...(time === undefined ? {} : { timestamp: isoTime(time) }) });
    },
    assistantTurn(text, timestamp) {
      const time = noteTime(timestamp);
      assistantTurnCount += 1;
      if (text === undefined || text.trim() === '') return;
      pendingReply = { text, time };
    },
    toolCall(name) {
      const cleaned = cleanToolName(name);
      if (cleaned === '' || toolCalls.length >= limits.maxToolCalls) return;
      toolCalls.push(turns.length === 0 ? { name: cleaned } : { name: cleaned, afterTurn: turns.length - 1 });
    },
    skill(name) {
      uniquePush(skillsUsed, cleanToolName(name), limits.maxListEntries);
    },
    file(path) {
      uniquePush(filesTouched, redactSecretText(path, rules.knownSecrets), limits.maxListEntries);
    },
    signal(signal) {
      outcomeSignals.push(signal.kind === 'turn-error' ? { ...signal, detail: clean(signal.detail) } : signal);
    },
    reject(reason) {
      rejected = reason;
    },
    finish(fallbackTime) {
      if (rejected !== undefined) return skip(rejected);
      flushReply();
      if (lastTime === undefined) noteTime(fallbackTime);
      if (firstRawPrompt !== undefined) {
        const own = ownSessionReason(firstRawPrompt, rules.environment);
        if (own !== undefined) return skip(own);
      }
      const task = turns.find((turn) => turn.role === 'user')?.text;
      if (task === undefined) return skip('no-prompt');
      if (!isInScope(rules.scope, project)) return skip('outside-scope');
      const start = rules.window.startFor(scopeProjectOf(rules.scope, project));
      if (start !== undefined && (lastTime === undefined || lastTime < start)) return skip('outside-window');
      rules.report.sessionHarvested(task);
      const endedAt = lastTime === undefined ? '' : isoTime(lastTime);
      return {
        format: SESSION_RECORD_FORMAT,
        source,
        sessionId,
        project,
        ...(gitBranch === undefined ? {} : { gitBranch }),
        startedAt: firstTime === undefined ? endedAt : isoTime(firstTime),
        endedAt,
        task,
        turns,
        toolCalls,
        skillsUsed,
        filesTouched,
        outcomeSignals,
        userTurnCount,
        assistantTurnCount,
        location,
      };
    },
  };
}
