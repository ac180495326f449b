import type { HarvestedSession } from '../harvest/session-record.js';

/** The developer's prompts of a session, in order (the first is the session's `task`). */
export function userPrompts(session: HarvestedSession): string[] {
  return session.turns.filter((turn) => turn.role === 'user').map((turn) => turn.text);
}

/** The agent's last kept reply, or '' when it gave none. */
export function lastAssistantReply(session: HarvestedSession): string {
  for (let index = session.turns.length - 1; index >= 0; index -= 1) {
    const turn = session.turns[index];
    if (turn !== undefined && turn.role === 'assistant') return turn.text;
  }
  return '';
}

/**
 * The skill a session's tasks are credited to: the one skill it invoked, or '' when it invoked
 * none or several (then no single skill can take the credit or the blame).
 */
export function sessionSkillHint(session: HarvestedSession): string {
  return session.skillsUsed.length === 1 ? (session.skillsUsed[0] as string) : '';
}

/** `text` cut to `limit` characters, with a ` …` marker when cut. */
export function cutText(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)} …`;
}
