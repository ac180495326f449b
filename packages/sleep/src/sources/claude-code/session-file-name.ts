/** The folder Claude Code keeps a session's subagents' transcripts in: their sessions are the agent's, not the developer's. */
export const SUBAGENTS_FOLDER = 'subagents';

/** Whether a file of this name in a slug folder is a session's transcript; `agent-*.jsonl` are subagents' (older versions). */
export function isSessionFileName(name: string): boolean {
  return name.endsWith('.jsonl') && !name.startsWith('agent-');
}
