import type { HarvestedSession } from '../harvest/session-record.js';
import type { TaskOutcome } from '../tasks/task-record.js';

/**
 * How a session ended, from its outcome signals. Any bad sign makes it a failure; good signs with
 * no bad one a success; a session of three or more prompts with no sign either way was a back and
 * forth (`mixed`); a shorter one is `unknown`.
 *
 * The original read only the developer's words. Here a turn the tool reported as errored is a bad
 * sign too, and of the test and build results the agent reported only the last one of each kind
 * counts: a red run the agent then fixed is how work goes, not how the session ended.
 */
export function sessionOutcome(session: HarvestedSession): TaskOutcome {
  let positive = false;
  let negative = false;
  const lastVerification = new Map<string, boolean>();
  for (const signal of session.outcomeSignals) {
    if (signal.kind === 'user-feedback') {
      if (signal.polarity === 'positive') positive = true;
      else negative = true;
    } else if (signal.kind === 'turn-error') negative = true;
    else lastVerification.set(signal.verifier, signal.passed);
  }
  for (const passed of lastVerification.values()) {
    if (passed) positive = true;
    else negative = true;
  }
  if (negative) return 'fail';
  if (positive) return 'success';
  return session.userTurnCount >= 3 ? 'mixed' : 'unknown';
}
