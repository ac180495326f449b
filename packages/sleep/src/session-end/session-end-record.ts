import path from 'node:path';
import type { SourceId } from '../harvest/session-record.js';

/** The version of a session-end record's shape, carried by every line of the log. */
export const SESSION_END_RECORD_FORMAT = 'skillopt.sleep.session-end.v1';

/** The log in Sleep's state directory the agents' session-end hooks append to. */
export const SESSION_END_LOG_FILE = 'session-ends.jsonl';

/**
 * One session an agent ended, as its plugin's hook recorded it: where its transcript is and which
 * project it ran in, never what was said in it. A night reads the transcripts these records name,
 * wherever the agent kept them.
 */
export interface SessionEndRecord {
  format: typeof SESSION_END_RECORD_FORMAT;
  /** The agent whose hook wrote the record. */
  source: SourceId;
  sessionId: string;
  /** The session's transcript, absolute; null when the agent named none. */
  transcriptPath: string | null;
  /** The folder the session ran in, absolute. */
  project: string;
  /** Why the session ended, in the agent's words (Claude Code: `clear`, `logout`, `prompt_input_exit`, `other`…); null when it gave none. */
  reason: string | null;
  /** When the hook ran, ISO in UTC. */
  endedAt: string;
}

/** The session-end log of a state directory. */
export function sessionEndLogFile(stateDirectory: string): string {
  return path.join(stateDirectory, SESSION_END_LOG_FILE);
}
