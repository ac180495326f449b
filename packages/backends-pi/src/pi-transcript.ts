import { addUsage, type TranscriptEvent, type Usage } from '@skillopt/contract';
import type { TranscriptOutcome, TranscriptTranslation } from '@skillopt/backends-kit';
import { classifyPiFailure } from './pi-failure.js';
import { usageFromPi, type PiUsageFields } from './usage-mapping.js';

/** An assistant message of Pi's, as `message_end` carries it. */
interface PiAssistantMessage {
  role?: unknown;
  content?: unknown;
  usage?: PiUsageFields;
  stopReason?: unknown;
  errorMessage?: unknown;
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter((block): block is { type: 'text'; text: string } => typeof block === 'object' && block?.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('');
}

/**
 * A reader of what `pi -p --mode json` prints, one event a line: a `session` header, then
 * `agent_start`, `turn_start`, `message_start` / `message_update` / `message_end`, `turn_end`,
 * `agent_end`. Each model request ends in a `message_end` of an assistant message, which carries
 * that request's usage (summed here) and why it stopped; the last one's text is the answer (a
 * message that called tools comes before it). One that stopped with `error` or `aborted` ended
 * the run: Pi exits 0 in this mode all the same, so its `errorMessage` is the run's failure.
 */
export function readPiTranscript(): TranscriptTranslation {
  let finalText: string | undefined;
  const usages: Usage[] = [];
  let failureMessage: string | undefined;
  return {
    readEvent(event: TranscriptEvent) {
      if (event.type !== 'message_end') return;
      const message = event.message as PiAssistantMessage | undefined;
      if (message?.role !== 'assistant') return;
      const usage = message.usage === undefined ? undefined : usageFromPi(message.usage);
      if (usage) usages.push(usage);
      if (message.stopReason === 'error' || message.stopReason === 'aborted') {
        failureMessage =
          typeof message.errorMessage === 'string' && message.errorMessage !== '' ? message.errorMessage : `the request ended: ${message.stopReason}`;
        return;
      }
      failureMessage = undefined;
      finalText = textOf(message.content);
    },
    finish(): TranscriptOutcome {
      return {
        ...(finalText === undefined ? {} : { finalText }),
        ...(usages.length === 0 ? {} : { usage: addUsage(...usages) }),
        ...(failureMessage === undefined ? {} : { failure: classifyPiFailure(failureMessage) }),
      };
    },
  };
}
