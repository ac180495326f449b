import type { Usage } from '@skillopt/contract';

/**
 * A rough token count for text whose real count nobody reported: one token per 4 characters
 * (UTF-16 code units), rounded up. That is the usual rule of thumb for English prose under BPE
 * tokenizers; code, non-Latin scripts and JSON run higher, so treat the figure as an order of
 * magnitude for budgets and reports, never for billing.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * A Usage for a call that reported none (agent CLIs that print no token counts), marked
 * `estimated: true` so reports and costs say the figures are guesses.
 */
export function estimateUsage(input: string, output: string): Usage {
  return { inputTokens: estimateTokens(input), outputTokens: estimateTokens(output), estimated: true };
}
