import { z } from 'zod';

/**
 * One entry of history.json and the content of steps/step_NNNN/step_record.json. The trainer
 * owns the fields (timing, token counts, gate scores, action …); the store only relies on `step`,
 * the global step number, to keep history in step order and to drop records of a step that was
 * never committed.
 */
export const stepRecordSchema = z.looseObject({
  step: z.int().positive(),
});
export type StepRecord = z.infer<typeof stepRecordSchema>;

export const historySchema = z.array(stepRecordSchema);
