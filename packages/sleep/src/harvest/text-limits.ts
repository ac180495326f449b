/** How much of a session a harvested record keeps: enough to mine tasks from, bounded whatever the session's length. */
export interface TextLimits {
  /** Characters kept of one prompt or reply, after secrets are cut out. */
  maxTextCharacters: number;
  /** Prompts kept per session (the first ones: a session's later prompts are mostly follow-ups). */
  maxUserTurns: number;
  /** Assistant replies kept per session: the last reply of each exchange, up to this many, newest kept. */
  maxAssistantTurns: number;
  /** Tool calls kept per session, by name. */
  maxToolCalls: number;
  /** Files and skills kept per session. */
  maxListEntries: number;
}

export const DEFAULT_TEXT_LIMITS: TextLimits = {
  maxTextCharacters: 4000,
  maxUserTurns: 40,
  maxAssistantTurns: 40,
  maxToolCalls: 1000,
  maxListEntries: 100,
};

/** `text` cut to `limit` characters, marked when cut. */
export function clipText(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)} …[cut, ${text.length} characters]`;
}

/** A tool name as a plain identifier: nothing a terminal or a prompt could trip on. */
export function cleanToolName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.:-]/g, '').slice(0, 80);
}
