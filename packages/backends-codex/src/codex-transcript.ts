import type { TranscriptEvent, Usage } from '@skillopt/contract';
import type { TranscriptOutcome, TranscriptTranslation } from '@skillopt/backends-kit';
import { addUsage } from '@skillopt/contract';
import { classifyCodexFailure } from './codex-failure.js';
import { usageFromCodex, type CodexUsageFields } from './usage-mapping.js';

/**
 * A reader of what `codex exec --json` prints, one event a line:
 * - `item.completed` with an `agent_message` item: a message of the agent; the last one is its answer
 *   (`command_execution` items are its tool calls, `error` items warnings it carried on after);
 * - `turn.completed` with `usage`: the turn's token counts, summed over its model requests;
 * - `turn.failed` (`error.message`) or a top-level `error` (`message`): the failure that ended it.
 */
export function readCodexTranscript(): TranscriptTranslation {
  let finalText: string | undefined;
  const usages: Usage[] = [];
  let failureMessage: string | undefined;
  return {
    readEvent(event: TranscriptEvent) {
      if (event.type === 'item.completed') {
        const item = event.item as { type?: unknown; text?: unknown } | undefined;
        if (item?.type === 'agent_message' && typeof item.text === 'string') finalText = item.text;
      } else if (event.type === 'turn.completed') {
        const usage = usageFromCodex((event.usage ?? {}) as CodexUsageFields);
        if (usage) usages.push(usage);
        // An error the turn got over (a warning printed as an error event) did not end the run.
        failureMessage = undefined;
      } else if (event.type === 'turn.failed') {
        const message = (event.error as { message?: unknown } | undefined)?.message;
        if (typeof message === 'string' && message !== '') failureMessage = message;
      } else if (event.type === 'error' && typeof event.message === 'string' && event.message !== '') {
        // turn.failed repeats the error that ended a turn; an error event alone (a failure before any turn) is kept too.
        failureMessage ??= event.message;
      }
    },
    finish(): TranscriptOutcome {
      return {
        ...(finalText === undefined ? {} : { finalText }),
        ...(usages.length === 0 ? {} : { usage: addUsage(...usages) }),
        ...(failureMessage === undefined ? {} : { failure: classifyCodexFailure(failureMessage) }),
      };
    },
  };
}
