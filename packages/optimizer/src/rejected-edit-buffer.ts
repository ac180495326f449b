import { editSchema, ERROR_CODES, SkillOptError, type Edit } from '@skillopt/contract';
import { z } from 'zod';
import { describeEdit } from './proposed-edit.js';

export const rejectedEditSchema = z.strictObject({
  /** The step (1-based, across epochs) whose candidate the gate refused. */
  globalStep: z.int().positive(),
  edit: editSchema,
  /** The incumbent's and the candidate's gate scores, when known. */
  scoreBefore: z.number().optional(),
  scoreAfter: z.number().optional(),
});
export type RejectedEdit = z.infer<typeof rejectedEditSchema>;

export const rejectedEditBufferSnapshotSchema = z.strictObject({
  version: z.literal(1),
  maxEntries: z.int().positive(),
  entries: z.array(rejectedEditSchema),
});
export type RejectedEditBufferSnapshot = z.infer<typeof rejectedEditBufferSnapshotSchema>;

export const DEFAULT_REJECTED_EDIT_BUFFER_SIZE = 30;

/** Long targets and contents are shortened in prompts; the buffer itself keeps them whole. */
const MAX_RENDERED_EDIT_CHARACTERS = 400;

function editKey(edit: Edit): string {
  return JSON.stringify([edit.op, edit.target ?? '', edit.content ?? '']);
}

/**
 * Edits the gate refused, shown to later reflection prompts so they are not proposed again.
 * Bounded: beyond `maxEntries` the oldest entries are dropped, so prompts stay small however long
 * the run. The same edit refused again moves to the newest position instead of appearing twice.
 * It serialises to JSON (`toJSON` / `fromJSON`) so the run store can save it and a resumed run
 * sees what the interrupted one had learned.
 */
export class RejectedEditBuffer {
  readonly maxEntries: number;
  #entries: RejectedEdit[] = [];

  constructor(options: { maxEntries?: number } = {}) {
    const maxEntries = options.maxEntries ?? DEFAULT_REJECTED_EDIT_BUFFER_SIZE;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new SkillOptError({
        code: ERROR_CODES.configInvalid,
        category: 'user',
        message: `the rejected-edit buffer size must be a whole number of at least 1, got ${maxEntries}`,
      });
    }
    this.maxEntries = maxEntries;
  }

  /** Oldest first. */
  get entries(): readonly RejectedEdit[] {
    return this.#entries;
  }

  get size(): number {
    return this.#entries.length;
  }

  /** Records the edits of one refused candidate. */
  record(rejection: { globalStep: number; edits: readonly Edit[]; scoreBefore?: number; scoreAfter?: number }): void {
    for (const edit of rejection.edits) {
      const entry = rejectedEditSchema.parse({
        globalStep: rejection.globalStep,
        edit,
        ...(rejection.scoreBefore === undefined ? {} : { scoreBefore: rejection.scoreBefore }),
        ...(rejection.scoreAfter === undefined ? {} : { scoreAfter: rejection.scoreAfter }),
      });
      const key = editKey(entry.edit);
      this.#entries = this.#entries.filter((existing) => editKey(existing.edit) !== key);
      this.#entries.push(entry);
    }
    if (this.#entries.length > this.maxEntries) this.#entries = this.#entries.slice(this.#entries.length - this.maxEntries);
  }

  clear(): void {
    this.#entries = [];
  }

  /** The buffer as prompt text, one line per edit, oldest first; '' when empty. */
  render(): string {
    return this.#entries
      .map((entry) => {
        const scores =
          entry.scoreBefore !== undefined && entry.scoreAfter !== undefined ? `, score ${entry.scoreBefore.toFixed(3)} -> ${entry.scoreAfter.toFixed(3)}` : '';
        const described = describeEdit(entry.edit);
        const shortened = described.length > MAX_RENDERED_EDIT_CHARACTERS ? `${described.slice(0, MAX_RENDERED_EDIT_CHARACTERS)}...` : described;
        return `- step ${entry.globalStep}${scores}: ${shortened}`;
      })
      .join('\n');
  }

  toJSON(): RejectedEditBufferSnapshot {
    return { version: 1, maxEntries: this.maxEntries, entries: this.#entries.map((entry) => ({ ...entry })) };
  }

  /** Restores a buffer saved by `toJSON`; anything else is a `data-invalid` error naming the problem. */
  static fromJSON(value: unknown): RejectedEditBuffer {
    const parsed = rejectedEditBufferSnapshotSchema.safeParse(value);
    if (!parsed.success) {
      throw new SkillOptError({
        code: ERROR_CODES.dataInvalid,
        category: 'user',
        message: `not a saved rejected-edit buffer: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top level)'}: ${issue.message}`).join('; ')}`,
      });
    }
    const buffer = new RejectedEditBuffer({ maxEntries: parsed.data.maxEntries });
    buffer.#entries = parsed.data.entries.slice(-parsed.data.maxEntries);
    return buffer;
  }
}
