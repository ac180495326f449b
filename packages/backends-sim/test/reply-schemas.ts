import { z } from 'zod';

/**
 * Small mirrors of the reply shapes the optimizer parses (packages/optimizer/src/{reflection,
 * aggregation,selection,learning-rate-decision,skill-update,slow-update,meta-skill,
 * reflection-appendix}.ts), written from their documented JSON, not imported.
 */
const op = z.preprocess(
  (value) => (typeof value === 'string' ? (value.trim().toLowerCase() === 'add' ? 'append' : value.trim().toLowerCase()) : value),
  z.enum(['append', 'insert_after', 'replace', 'delete']),
);
const optionalText = z.string().nullish();
const editShape = { op, target: optionalText, content: optionalText, rationale: optionalText };
function checkEdit(edit: { op: string; target?: string | null | undefined; content?: string | null | undefined }, context: z.RefinementCtx): void {
  if (edit.op !== 'append' && !edit.target) context.addIssue({ code: 'custom', path: ['target'], message: 'needs a target' });
  if (edit.op !== 'delete' && !(edit.content ?? '').trim()) context.addIssue({ code: 'custom', path: ['content'], message: 'needs content' });
}
const noMarkers = (text: string): boolean => !/<!--[\s\S]*?-->/.test(text);

export const reflectReply = z.object({
  reasoning: z.string().nullish(),
  edits: z.array(z.object(editShape).superRefine(checkEdit)),
  appendixNotes: z.array(z.string()).nullish(),
});

export const mergeReply = (inputCount: number) =>
  z.object({
    reasoning: z.string().nullish(),
    edits: z.array(z.object({ ...editShape, mergedFrom: z.array(z.int().min(1).max(inputCount)).min(1) }).superRefine(checkEdit)).min(1),
  });

export const rankReply = (editCount: number) => z.object({ reasoning: z.string().nullish(), selected: z.array(z.int().min(1).max(editCount)).min(1) });

export const lrReply = z.object({ reasoning: z.string().nullish(), learningRate: z.int() });

export const rewriteReply = z.object({
  reasoning: z.string().nullish(),
  changeSummary: z.array(z.string()).nullish(),
  newSkill: z
    .string()
    .refine((text) => text.trim() !== '')
    .refine(noMarkers),
});

export const slowUpdateReply = z.object({
  reasoning: z.string().nullish(),
  guidance: z
    .string()
    .refine((text) => text.trim() !== '')
    .refine(noMarkers),
});

export const metaSkillReply = z.object({ reasoning: z.string().nullish(), metaSkill: z.string().refine((text) => text.trim() !== '') });

export const appendixReply = (noteCount: number) =>
  z.object({ notes: z.array(z.string().min(1)).refine((notes) => notes.length >= 1 && notes.length < noteCount && new Set(notes).size === notes.length) });

/** The first JSON object of a reply (the simulated optimizer writes bare JSON). */
export function parseReply<T>(text: string, schema: z.ZodType<T>): T {
  return schema.parse(JSON.parse(text));
}
