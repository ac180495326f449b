import { EDIT_OPERATIONS, editSchema, type Edit } from '@skillopt/contract';
import { z } from 'zod';

// Models write `add` for append, capitalise operations and send `null` for fields they leave out.
const operation = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const normalised = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return normalised === 'add' ? 'append' : normalised;
}, z.enum(EDIT_OPERATIONS));
const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined);

/** The fields of an edit a model proposes; stages add their own fields (a merge's `mergedFrom`). */
export const proposedEditShape = {
  op: operation,
  target: optionalText,
  content: optionalText,
  rationale: optionalText,
};

/** The checks an edit needs whatever stage proposed it: a target where one is anchored, content where text is written. */
export function checkEditFields(edit: { op: string; target?: string | undefined; content?: string | undefined }, context: z.RefinementCtx): void {
  if (edit.op !== 'append' && (edit.target === undefined || edit.target === ''))
    context.addIssue({ code: 'custom', path: ['target'], message: `an ${edit.op} edit needs a target copied from the skill` });
  if (edit.op !== 'delete' && (edit.content === undefined || edit.content.trim() === ''))
    context.addIssue({ code: 'custom', path: ['content'], message: `an ${edit.op} edit needs content` });
}

/**
 * An edit as a model proposes it. Fields the optimizer computes itself (`support`, `source`) are
 * not read from the reply, whatever the model wrote there.
 */
export const proposedEditSchema = z.object(proposedEditShape).superRefine(checkEditFields);
export type ProposedEdit = z.output<typeof proposedEditSchema>;

/** A contract `Edit` from a proposed one, with the support and source the optimizer computed. */
export function toEdit(proposed: ProposedEdit, support: number, source: Edit['source']): Edit {
  return editSchema.parse({
    op: proposed.op,
    ...(proposed.op === 'append' || proposed.target === undefined ? {} : { target: proposed.target }),
    ...(proposed.op === 'delete' || proposed.content === undefined ? {} : { content: proposed.content }),
    rationale: proposed.rationale ?? '',
    support,
    ...(source === undefined ? {} : { source }),
  });
}

/** An edit as a JSON line in a prompt: only what the reader needs, in a stable key order. */
export function describeEdit(edit: Edit): string {
  return JSON.stringify({
    op: edit.op,
    ...(edit.target === undefined ? {} : { target: edit.target }),
    ...(edit.content === undefined ? {} : { content: edit.content }),
    ...(edit.rationale === '' ? {} : { rationale: edit.rationale }),
  });
}

/** Numbered edit lines (`[1] …`) with their support and origin, as merge, rank and rewrite read them. */
export function renderNumberedEdits(edits: readonly Edit[]): string {
  return edits
    .map((edit, index) => {
      const origin =
        edit.source === undefined
          ? ''
          : `, from ${edit.source === 'failure' ? 'failed' : edit.source === 'success' ? 'successful' : 'failed and successful'} trajectories`;
      return `[${index + 1}] (support ${edit.support}${origin}) ${describeEdit(edit)}`;
    })
    .join('\n');
}
