/**
 * Codex writes a session twice over, interleaved in one file: the conversation history
 * (`response_item` records: `message`, `function_call`…) and the UI's events (`event_msg`:
 * `user_message`, `agent_message`, `exec_command_end`…). Versions differ in which of the two carry
 * a given prompt or reply, and some write both, so neither can be read alone and each message is
 * taken from whichever stream tells it first. A text the other stream already told, not yet
 * matched, is its mirror and is passed over; the same words typed again later are a new message,
 * since by then the first telling has been matched.
 */
export type RolloutStream = 'history' | 'events';

export interface MirroredMessages {
  /** Whether `text`, told by `stream`, is a telling the other stream already made. */
  isMirror(stream: RolloutStream, text: string): boolean;
}

// Mirrors sit next to each other in the file; a telling unmatched after this many more is one the
// other stream never makes.
const UNMATCHED_KEPT = 8;

export function createMirroredMessages(): MirroredMessages {
  const unmatched: Record<RolloutStream, string[]> = { history: [], events: [] };
  return {
    isMirror(stream, text) {
      // The two streams may space or wrap the same words differently.
      const key = text.replace(/\s+/g, ' ').trim();
      const other = unmatched[stream === 'history' ? 'events' : 'history'];
      const match = other.indexOf(key);
      if (match !== -1) {
        // Tellings older than the match were never mirrored: they will not be now.
        other.splice(0, match + 1);
        return true;
      }
      const own = unmatched[stream];
      own.push(key);
      if (own.length > UNMATCHED_KEPT) own.shift();
      return false;
    },
  };
}
