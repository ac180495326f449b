import type { Usage } from '@skillopt/contract';

/** The token counts of Codex's `turn.completed` event, as it prints them. */
export interface CodexUsageFields {
  input_tokens?: unknown;
  cached_input_tokens?: unknown;
  cache_write_input_tokens?: unknown;
  output_tokens?: unknown;
  reasoning_output_tokens?: unknown;
}

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);

/**
 * Codex's usage of a turn (summed over the turn's model requests) in the contract's terms, or
 * undefined when it lacks the input or output count. Codex counts cached tokens inside
 * `input_tokens` and reasoning inside `output_tokens`, as the contract does; tokens written to
 * the cache stay inside `inputTokens`, which the contract has no separate field for.
 */
export function usageFromCodex(fields: CodexUsageFields): Usage | undefined {
  const inputTokens = count(fields.input_tokens);
  const outputTokens = count(fields.output_tokens);
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  const cachedInputTokens = count(fields.cached_input_tokens);
  const reasoningTokens = count(fields.reasoning_output_tokens);
  return {
    inputTokens,
    outputTokens,
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
  };
}
