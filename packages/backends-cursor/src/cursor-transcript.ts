import type { TranscriptEvent } from '@skillopt/contract';
import type { TranscriptOutcome, TranscriptTranslation } from '@skillopt/backends-kit';
import { classifyCursorFailure } from './cursor-failure.js';
import { usageFromCursor, type CursorUsageFields } from './usage-mapping.js';

/**
 * A reader of what `cursor-agent -p --output-format stream-json` prints, one event a line
 * (`system` init, `user`, `thinking`, `assistant` messages between `tool_call` started/completed
 * pairs, then one `result`); `--output-format json` prints the `result` alone, which reads the same.
 *
 * Only the last `result` event answers, and it fails closed as the original did: `is_error: true`
 * or a subtype other than `success` is a reported failure, and a run without a result string (an
 * interrupted stream, whatever the assistant messages said before) gives no answer at all — its
 * text is never scored. Its `usage`, when Cursor prints one, is the run's token counts.
 */
export function readCursorTranscript(): TranscriptTranslation {
  let result: TranscriptEvent | undefined;
  return {
    readEvent(event: TranscriptEvent) {
      if (event.type === 'result') result = event;
    },
    finish(): TranscriptOutcome {
      if (result === undefined) return {};
      const usage = typeof result.usage === 'object' && result.usage !== null ? usageFromCursor(result.usage as CursorUsageFields) : undefined;
      const failed = result.is_error === true || (typeof result.subtype === 'string' && result.subtype !== 'success');
      if (failed) return { failure: classifyCursorFailure(failureMessageOf(result)), ...(usage ? { usage } : {}) };
      return {
        ...(typeof result.result === 'string' ? { finalText: result.result } : {}),
        ...(usage ? { usage } : {}),
      };
    },
  };
}

function failureMessageOf(result: TranscriptEvent): string {
  for (const field of ['error', 'result', 'message'] as const) {
    const value = result[field];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string')
      return (value as { message: string }).message;
  }
  return `the run ended with an error result (${String(result.subtype ?? 'no subtype')})`;
}
