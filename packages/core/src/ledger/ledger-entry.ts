import { MODEL_ROLES, callWarningSchema, usageSchema, type Usage } from '@skillopt/contract';
import { z } from 'zod';

/** One model call (or one call avoided by a cache), as the ledger keeps it. */
export const ledgerEntrySchema = z.strictObject({
  /** 1, 2, 3 … in recording order; continues across a resume. */
  sequence: z.int().positive(),
  timestamp: z.iso.datetime(),
  role: z.enum(MODEL_ROLES),
  purpose: z.string().min(1),
  provider: z.string().min(1),
  modelId: z.string().min(1),
  usage: usageSchema,
  /** null when the model has no price in the table: unknown, never guessed. 0 for a cache hit. */
  costUsd: z.number().nonnegative().nullable(),
  latencyMs: z.number().nonnegative(),
  /** True when the result came from a cache and nothing was paid; `usage` is then what the original call used. */
  cacheHit: z.boolean(),
  /**
   * A failed call still counts towards call budgets: it was made and may have been billed. An
   * `incomplete` call started in a session that was killed before it finished: the provider may
   * have received and billed it, so it counts too, with its usage estimated from the prompt.
   */
  outcome: z.enum(['succeeded', 'failed', 'incomplete']),
  errorCode: z.string().optional(),
  /** The global training step the call belonged to, when known. */
  globalStep: z.int().nonnegative().optional(),
  /** What the model could not honour in the call (an unknown request field, a refused setting). */
  warnings: z.array(callWarningSchema).optional(),
  /** The worker that made the call, when a distributed executor ran the rollout on another machine. */
  worker: z.string().min(1).optional(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

/**
 * The usage as the contract defines it, whatever a backend handed back: unknown keys dropped and
 * counts made whole non-negative numbers. A backend reporting nonsense must not stop the run or
 * make ledger.json unreadable; the estimate flag is kept so reports can say so.
 */
export function normaliseUsage(usage: Usage | undefined): Usage {
  const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0);
  if (usage === undefined) return { inputTokens: 0, outputTokens: 0 };
  const normalised: Usage = { inputTokens: count(usage.inputTokens), outputTokens: count(usage.outputTokens) };
  if (usage.cachedInputTokens !== undefined) normalised.cachedInputTokens = count(usage.cachedInputTokens);
  if (usage.cacheWriteInputTokens !== undefined) normalised.cacheWriteInputTokens = count(usage.cacheWriteInputTokens);
  if (usage.reasoningTokens !== undefined) normalised.reasoningTokens = count(usage.reasoningTokens);
  if (usage.estimated === true) normalised.estimated = true;
  return normalised;
}
