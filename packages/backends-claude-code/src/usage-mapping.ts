import type { Usage } from '@skillopt/contract';

/** One model's entry of the result event's `modelUsage`, as Claude Code prints it. */
interface ClaudeModelUsage {
  inputTokens?: unknown;
  outputTokens?: unknown;
  cacheReadInputTokens?: unknown;
  cacheCreationInputTokens?: unknown;
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0);

/**
 * The result event's per-model usage in the contract's terms, summed over the models the run used.
 * Claude Code's `inputTokens` leaves out the prompt served from the cache and written to it; the
 * contract's `inputTokens` is the whole prompt, with the two parts as their own fields:
 *
 *   inputTokens           = inputTokens + cacheReadInputTokens + cacheCreationInputTokens
 *   cachedInputTokens     = cacheReadInputTokens
 *   cacheWriteInputTokens = cacheCreationInputTokens
 *
 * Its `costUSD` is not read: cost comes from our price table. Undefined when nothing was reported.
 */
export function usageFromModelUsage(modelUsage: unknown): Usage | undefined {
  if (typeof modelUsage !== 'object' || modelUsage === null) return undefined;
  const entries = Object.values(modelUsage as Record<string, ClaudeModelUsage>).filter((entry) => typeof entry === 'object' && entry !== null);
  if (entries.length === 0) return undefined;
  const usage: Usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteInputTokens: 0 };
  for (const entry of entries) {
    const cacheRead = count(entry.cacheReadInputTokens);
    const cacheWrite = count(entry.cacheCreationInputTokens);
    usage.inputTokens += count(entry.inputTokens) + cacheRead + cacheWrite;
    usage.outputTokens += count(entry.outputTokens);
    usage.cachedInputTokens = (usage.cachedInputTokens ?? 0) + cacheRead;
    usage.cacheWriteInputTokens = (usage.cacheWriteInputTokens ?? 0) + cacheWrite;
  }
  return usage;
}

/** The result event's summed `usage` (snake_case), for a result without `modelUsage`. */
export function usageFromResultUsage(resultUsage: unknown): Usage | undefined {
  if (typeof resultUsage !== 'object' || resultUsage === null) return undefined;
  const fields = resultUsage as Record<string, unknown>;
  if (typeof fields.input_tokens !== 'number' || typeof fields.output_tokens !== 'number') return undefined;
  const cacheRead = count(fields.cache_read_input_tokens);
  const cacheWrite = count(fields.cache_creation_input_tokens);
  return {
    inputTokens: count(fields.input_tokens) + cacheRead + cacheWrite,
    outputTokens: count(fields.output_tokens),
    cachedInputTokens: cacheRead,
    cacheWriteInputTokens: cacheWrite,
  };
}

/** The model ids of `modelUsage`, without Claude Code's context-window suffix (`claude-opus-4-8[1m]`). */
export function modelsOfModelUsage(modelUsage: unknown): string[] {
  if (typeof modelUsage !== 'object' || modelUsage === null) return [];
  return Object.keys(modelUsage).map((model) => model.replace(/\[[^\]]*\]$/, ''));
}
