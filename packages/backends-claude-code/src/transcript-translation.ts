import type { TranscriptOutcome, TranscriptTranslation } from '@skillopt/backends-kit';
import type { TranscriptEvent } from '@skillopt/contract';
import { failureOfResult } from './result-failure.js';
import { usageFromModelUsage, usageFromResultUsage } from './usage-mapping.js';

/** The text blocks of an assistant message, joined. */
function assistantText(event: TranscriptEvent): string | undefined {
  const message = event.message as { content?: unknown } | undefined;
  if (!Array.isArray(message?.content)) return undefined;
  const texts = message.content
    .filter(
      (block): block is { type: 'text'; text: string } =>
        typeof block === 'object' && block !== null && block.type === 'text' && typeof block.text === 'string',
    )
    .map((block) => block.text);
  return texts.length > 0 ? texts.join('') : undefined;
}

/**
 * Reads what Claude Code prints with `--output-format stream-json --verbose` (a `system` init, an
 * `assistant` event per model turn, `user` events with tool results, then one `result`) or with
 * `--output-format json` (the `result` alone). The answer and the usage come from the result
 * event: `structured_output` when a schema was given, else `result`; `modelUsage`, else `usage`.
 * The last assistant text stands in for a result only when none came; a result with `is_error`
 * is a failure, never an answer. The session transcript Claude Code writes to disk has the same
 * `assistant` records, so this reads it too (without a result: its last text and no usage).
 */
export function readClaudeTranscript(): TranscriptTranslation {
  let lastAssistantText: string | undefined;
  let result: Record<string, unknown> | undefined;
  return {
    readEvent(event) {
      if (event.type === 'assistant') {
        const text = assistantText(event);
        if (text !== undefined && text.trim() !== '') lastAssistantText = text;
      }
      if (event.type === 'result') result = event;
    },
    finish(): TranscriptOutcome {
      if (result === undefined) return lastAssistantText === undefined ? {} : { finalText: lastAssistantText };
      const usage = usageFromModelUsage(result.modelUsage) ?? usageFromResultUsage(result.usage);
      if (result.is_error === true) return { failure: failureOfResult(result), ...(usage ? { usage } : {}) };
      const finalText =
        result.structured_output !== undefined
          ? JSON.stringify(result.structured_output)
          : typeof result.result === 'string'
            ? result.result
            : lastAssistantText;
      return { ...(finalText === undefined ? {} : { finalText }), ...(usage ? { usage } : {}) };
    },
  };
}
