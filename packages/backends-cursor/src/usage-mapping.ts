import type { Usage } from '@skillopt/contract';

/** A `usage` object as Cursor may print it on its `result` event (camelCase, or snake_case). */
export interface CursorUsageFields {
  inputTokens?: unknown;
  outputTokens?: unknown;
  cacheReadTokens?: unknown;
  cacheWriteTokens?: unknown;
  input_tokens?: unknown;
  output_tokens?: unknown;
  cache_read_tokens?: unknown;
  cache_write_tokens?: unknown;
}

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);

/**
 * Cursor's usage of a run in the contract's terms, or undefined when it lacks the input or output
 * count. Cursor, like Anthropic, counts the prompt read from its cache and written to it apart from
 * the rest of the input (its usage export has input, cache write, cache read and output columns);
 * the contract's `inputTokens` is the whole prompt, with the two parts as their own fields:
 *
 *   inputTokens           = inputTokens + cacheReadTokens + cacheWriteTokens
 *   cachedInputTokens     = cacheReadTokens
 *   cacheWriteInputTokens = cacheWriteTokens
 */
export function usageFromCursor(fields: CursorUsageFields): Usage | undefined {
  const input = count(fields.inputTokens ?? fields.input_tokens);
  const outputTokens = count(fields.outputTokens ?? fields.output_tokens);
  if (input === undefined || outputTokens === undefined) return undefined;
  const cacheRead = count(fields.cacheReadTokens ?? fields.cache_read_tokens) ?? 0;
  const cacheWrite = count(fields.cacheWriteTokens ?? fields.cache_write_tokens) ?? 0;
  return {
    inputTokens: input + cacheRead + cacheWrite,
    outputTokens,
    ...(cacheRead > 0 ? { cachedInputTokens: cacheRead } : {}),
    ...(cacheWrite > 0 ? { cacheWriteInputTokens: cacheWrite } : {}),
  };
}
