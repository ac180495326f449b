import { z } from 'zod';

/**
 * What happened in one rollout, as text the optimizer can read: the turns in order. `environment`
 * turns are what the benchmark showed the agent (observations, tool output, scorer feedback).
 */
export const trajectoryTurnSchema = z.strictObject({
  role: z.enum(['system', 'user', 'assistant', 'tool', 'environment']),
  content: z.string(),
  /** For assistant turns that called a tool, and the tool turns that answered. */
  toolName: z.string().optional(),
});
export type TrajectoryTurn = z.infer<typeof trajectoryTurnSchema>;

export const trajectorySchema = z.strictObject({
  turns: z.array(trajectoryTurnSchema),
  /** Why the item failed, in the evaluator's words (`wrong unit`, `no answer tag`), if known. */
  failureReason: z.string().optional(),
});
export type Trajectory = z.infer<typeof trajectorySchema>;
