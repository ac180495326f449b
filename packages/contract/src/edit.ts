import { z } from 'zod';

export const EDIT_OPERATIONS = ['append', 'insert_after', 'replace', 'delete'] as const;
export type EditOperation = (typeof EDIT_OPERATIONS)[number];

// `add` is what SkillOpt-Sleep and many models call an append; it is read as one.
const editOperationSchema = z.preprocess((value) => (value === 'add' ? 'append' : value), z.enum(EDIT_OPERATIONS));

/**
 * One proposed change to a skill document. `target` is the existing text an `insert_after`,
 * `replace` or `delete` anchors on; `content` the new text. `support` counts the trajectories
 * behind the edit, computed by the optimizer from the real minibatch, never taken from a reply.
 */
export const editSchema = z
  .strictObject({
    op: editOperationSchema,
    target: z.string().optional(),
    content: z.string().optional(),
    rationale: z.string().default(''),
    support: z.int().nonnegative().default(0),
    /** Whether failed or successful trajectories motivated it. */
    source: z.enum(['failure', 'success', 'mixed']).optional(),
  })
  .superRefine((edit, context) => {
    if (edit.op !== 'append' && !edit.target) context.addIssue({ code: 'custom', path: ['target'], message: `an ${edit.op} edit needs a target` });
    if (edit.op !== 'delete' && edit.content === undefined)
      context.addIssue({ code: 'custom', path: ['content'], message: `an ${edit.op} edit needs content` });
  });
export type Edit = z.output<typeof editSchema>;
/** What an edit may look like before parsing: `add` allowed, defaults not yet filled in. */
export type EditInput = z.input<typeof editSchema>;
