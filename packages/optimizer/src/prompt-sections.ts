/**
 * Optional context sections shared by several prompts. Each renders to '' when it has nothing to
 * say, so a prompt never carries an empty heading; a non-empty section ends with a blank line so
 * the template's next heading follows cleanly.
 */

export interface PromptContext {
  /** The optimizer's cross-epoch strategy notes (the meta skill), if any. */
  metaSkill?: string | undefined;
  /** The rendered rejected-edit buffer (`RejectedEditBuffer.render()`), if any. */
  rejectedEdits?: string | undefined;
}

export function metaSkillSection(metaSkill: string | undefined): string {
  if (metaSkill === undefined || metaSkill.trim() === '') return '';
  return (
    '## Optimizer strategy notes from earlier epochs\n\n' +
    'Use these notes as memory of what has helped and hurt before; when the evidence below disagrees, follow the evidence.\n\n' +
    `${metaSkill.trim()}\n\n`
  );
}

export function rejectedEditsSection(rejectedEdits: string | undefined): string {
  if (rejectedEdits === undefined || rejectedEdits.trim() === '') return '';
  return (
    '## Edits already tried and rejected\n\n' +
    'These edits were applied in earlier steps and made the skill score worse on validation tasks. Do not propose them again, nor close variants of them.\n\n' +
    `${rejectedEdits.trim()}\n\n`
  );
}

export function contextSections(context: PromptContext, include: { metaSkill: boolean; rejectedEdits: boolean }): string {
  return (include.metaSkill ? metaSkillSection(context.metaSkill) : '') + (include.rejectedEdits ? rejectedEditsSection(context.rejectedEdits) : '');
}
