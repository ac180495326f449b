import type { Usage } from '@skillopt/contract';

/** The fields of Anthropic's `usage` object this package reads (all others are ignored). */
export interface AnthropicUsageFields {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0);

/** True when the provider reported token counts at all. */
export function hasReportedUsage(usage: unknown): usage is AnthropicUsageFields {
  if (typeof usage !== 'object' || usage === null) return false;
  const fields = usage as AnthropicUsageFields;
  return typeof fields.input_tokens === 'number' && typeof fields.output_tokens === 'number';
}

/**
 * Anthropic's usage in the contract's terms. Anthropic's `input_tokens` counts only the input
 * after the last cache breakpoint; the prompt's other tokens are reported apart as
 * `cache_read_input_tokens` (served from the cache) and `cache_creation_input_tokens` (written to
 * it). The contract's `inputTokens` is the whole prompt, so:
 *
 *   inputTokens       = input_tokens + cache_read_input_tokens + cache_creation_input_tokens
 *   cachedInputTokens = cache_read_input_tokens   (billed at the cache-read rate)
 *   cacheWriteInputTokens = cache_creation_input_tokens (billed at the cache-write rate)
 *   outputTokens      = output_tokens             (thinking included, as Anthropic bills it)
 *   reasoningTokens   = output_tokens_details.thinking_tokens, when reported
 */
export function usageFromAnthropic(usage: AnthropicUsageFields): Usage {
  const cacheRead = count(usage.cache_read_input_tokens);
  const cacheCreation = count(usage.cache_creation_input_tokens);
  const result: Usage = {
    inputTokens: count(usage.input_tokens) + cacheRead + cacheCreation,
    outputTokens: count(usage.output_tokens),
  };
  if (typeof usage.cache_read_input_tokens === 'number') result.cachedInputTokens = cacheRead;
  if (typeof usage.cache_creation_input_tokens === 'number') result.cacheWriteInputTokens = cacheCreation;
  const thinking = usage.output_tokens_details?.thinking_tokens;
  if (typeof thinking === 'number') result.reasoningTokens = Math.min(count(thinking), result.outputTokens);
  return result;
}

/**
 * The tokens a call charges against a tokens-per-minute budget: Anthropic does not count cache
 * reads against its input-tokens-per-minute limit on current models, so they are left out.
 */
export function rateLimitedTokens(usage: AnthropicUsageFields): number {
  return count(usage.input_tokens) + count(usage.cache_creation_input_tokens) + count(usage.output_tokens);
}
