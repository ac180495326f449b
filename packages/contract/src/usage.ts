import { z } from 'zod';

const tokenCount = z.int().nonnegative();

/**
 * Tokens one call consumed. `cachedInputTokens` is the part of `inputTokens` served from a
 * provider's prompt cache; `reasoningTokens` the part of `outputTokens` spent thinking.
 * `cacheWriteInputTokens` the part of `inputTokens` written to that cache (priced apart by some
 * providers). `estimated` is true when the provider reported nothing and the figures were derived from text
 * length (agent CLIs that print no usage), so reports can say so.
 */
export const usageSchema = z.strictObject({
  inputTokens: tokenCount,
  outputTokens: tokenCount,
  cachedInputTokens: tokenCount.optional(),
  cacheWriteInputTokens: tokenCount.optional(),
  reasoningTokens: tokenCount.optional(),
  estimated: z.boolean().optional(),
});
export type Usage = z.infer<typeof usageSchema>;

export const EMPTY_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0 });

/** The sum of several usages; `estimated` is kept when any part was estimated. */
export function addUsage(...usages: readonly Usage[]): Usage {
  const total: Usage = { inputTokens: 0, outputTokens: 0 };
  for (const usage of usages) {
    total.inputTokens += usage.inputTokens;
    total.outputTokens += usage.outputTokens;
    if (usage.cachedInputTokens !== undefined) total.cachedInputTokens = (total.cachedInputTokens ?? 0) + usage.cachedInputTokens;
    if (usage.cacheWriteInputTokens !== undefined) total.cacheWriteInputTokens = (total.cacheWriteInputTokens ?? 0) + usage.cacheWriteInputTokens;
    if (usage.reasoningTokens !== undefined) total.reasoningTokens = (total.reasoningTokens ?? 0) + usage.reasoningTokens;
    if (usage.estimated) total.estimated = true;
  }
  return total;
}
