import { installSkillAsFile, type SkillInstallation } from '@skillopt/backends-kit';
import type { SkillPlacement } from './config-schema.js';

/** Where Cursor reads a project's instructions: AGENTS.md at the root of its workspace. */
export const AGENTS_FILE = 'AGENTS.md';

/** A project rule of Cursor's (`.cursor/rules/<name>.mdc`). */
export function rulePath(skillName: string): string {
  return `.cursor/rules/${skillName}.mdc`;
}

/** A skill as a Cursor rule: front matter that applies it to every request, then the skill itself. */
export function renderRuleFile(skill: string): string {
  return ['---', 'description: The instructions to follow for this task.', 'alwaysApply: true', '---', '', skill].join('\n');
}

/**
 * Puts the skill where Cursor reads it. `agents-md`: AGENTS.md, which Cursor adds to the model's
 * context as project instructions. `cursor-rules`: a project rule marked to apply always.
 */
export function cursorSkillInstallation(placement: SkillPlacement, skillName: string): SkillInstallation {
  if (placement === 'agents-md') return installSkillAsFile(AGENTS_FILE);
  return installSkillAsFile(rulePath(skillName), { render: renderRuleFile });
}
