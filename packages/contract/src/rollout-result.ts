import { z } from 'zod';
import { usageSchema } from './usage.js';
import { trajectorySchema } from './trajectory.js';

const score = z.number().min(0).max(1);

/** The infrastructure failure that prevented a rollout from producing a score. */
export const rolloutErrorSchema = z.strictObject({
  code: z.string().min(1),
  message: z.string(),
  retryable: z.boolean(),
});
export type RolloutError = z.infer<typeof rolloutErrorSchema>;

const rolloutCommonFields = {
  id: z.string().min(1),
  taskType: z.string().min(1),
  trajectory: trajectorySchema.optional(),
  usage: usageSchema.optional(),
  durationMs: z.number().nonnegative().optional(),
  /** Anything else the env wants to keep with the result (turn counts, tool statistics). */
  details: z.record(z.string(), z.unknown()).optional(),
};

/**
 * The target answered and the env scored it. `hard` is the benchmark's pass mark (0 or 1 for most;
 * a fraction where the benchmark gives partial passes) and `soft` its graded score.
 * `reference` is the gold answer as text, for the optimizer, where the benchmark allows showing it.
 */
export const scoredRolloutSchema = z.strictObject({
  ...rolloutCommonFields,
  status: z.literal('scored'),
  hard: score,
  soft: score,
  prediction: z.string(),
  reference: z.string().optional(),
});
export type ScoredRollout = z.infer<typeof scoredRolloutSchema>;

/**
 * Infrastructure failed (timeout, rate limit, crashed harness) so there is no score at all.
 * Core retries these and, if they persist, excludes the item and reports it: never a score of 0.
 */
export const erroredRolloutSchema = z.strictObject({
  ...rolloutCommonFields,
  status: z.literal('errored'),
  error: rolloutErrorSchema,
});
export type ErroredRollout = z.infer<typeof erroredRolloutSchema>;

export const rolloutResultSchema = z.discriminatedUnion('status', [scoredRolloutSchema, erroredRolloutSchema]);
export type RolloutResult = z.infer<typeof rolloutResultSchema>;

export function isScored(result: RolloutResult): result is ScoredRollout {
  return result.status === 'scored';
}
