/**
 * One session a developer had with a coding agent, in the one shape every source is read into.
 * Sleep's later stages (mining tasks, replaying them) see only this record, never a source's own
 * format, so a new source is a new reader and nothing else.
 *
 * What it keeps is bounded whatever the session's length: the developer's prompts and the
 * agent's final replies (secrets cut out, each clipped), the names of the tools it called (never
 * their arguments or outputs), and the signals of how the session went.
 */

/** The agent tools a session can be harvested from. */
export const SOURCE_IDS = ['claude-code', 'codex', 'copilot-cli', 'copilot-vscode', 'cursor', 'pi', 'opencode', 'devin'] as const;
export type SourceId = (typeof SOURCE_IDS)[number];

/** The version of the record's shape, carried by every record Sleep writes out. */
export const SESSION_RECORD_FORMAT = 'skillopt.sleep.session.v1';

export interface SessionTurn {
  role: 'user' | 'assistant';
  /** Secrets cut out, clipped to the harvest's per-text limit. */
  text: string;
  /** ISO time in UTC, when the source records one. */
  timestamp?: string;
}

/** One tool call, by name only: arguments and outputs are never harvested. */
export interface SessionToolCall {
  name: string;
  /** Index in `turns` of the turn it followed, when known. */
  afterTurn?: number;
}

/** What the session says about how well it went. */
export type OutcomeSignal =
  /** The developer's words: "still broken", "thanks, that works". */
  | { kind: 'user-feedback'; polarity: 'positive' | 'negative'; phrase: string; turn: number }
  /** The tool said a turn failed (Cursor's errored turn, OpenCode's message error). */
  | { kind: 'turn-error'; detail: string }
  /** A test or build result the agent reported (Devin's transcripts). */
  | { kind: 'verification'; verifier: 'tests' | 'build'; passed: boolean; evidence: string };

export interface HarvestedSession {
  format: typeof SESSION_RECORD_FORMAT;
  source: SourceId;
  /** The source's own id for the session. */
  sessionId: string;
  /** The absolute folder the session ran in, or '' when the source does not say. */
  project: string;
  gitBranch?: string;
  /** ISO times in UTC. */
  startedAt: string;
  endedAt: string;
  /** What the session was asked: its first prompt that is not a command or pasted context. */
  task: string;
  turns: SessionTurn[];
  toolCalls: SessionToolCall[];
  /** Skills the agent invoked by name (Claude Code's Skill tool). */
  skillsUsed: string[];
  filesTouched: string[];
  outcomeSignals: OutcomeSignal[];
  /** All user and assistant turns, including those not kept in `turns`. */
  userTurnCount: number;
  assistantTurnCount: number;
  /** Where it was read from: a file path, or `<database>#<id>` for a database row. */
  location: string;
}
