import { installSkillAsFile, type SkillInstallation } from '@skillopt/backends-kit';
import type { SkillPlacement } from './config-schema.js';

/** Where Codex reads a project's instructions: AGENTS.md at the root of its working folder. */
export const AGENTS_FILE = 'AGENTS.md';

/** The project skills folder Codex lists for the model (`<root>/.agents/skills/<name>/SKILL.md`). */
export function skillsFolderPath(skillName: string): string {
  return `.agents/skills/${skillName}/SKILL.md`;
}

/**
 * A skill as Codex's skills folder wants it: front matter with the name and the one-line
 * description Codex shows the model in its skills listing, then the skill itself.
 */
export function renderSkillFile(skillName: string, skill: string): string {
  return [
    '---',
    `name: ${skillName}`,
    'description: The instructions to follow for this task; read them before you start and apply them in your answer.',
    '---',
    '',
    skill,
  ].join('\n');
}

/**
 * Puts the skill where Codex reads it. `agents-md`: AGENTS.md, whose text Codex itself puts into the
 * model's context at the start of the run. `skills-folder`: a project skill, which Codex lists by
 * name and path, and the model opens with its own tools.
 */
export function codexSkillInstallation(placement: SkillPlacement, skillName: string): SkillInstallation {
  if (placement === 'agents-md') return installSkillAsFile(AGENTS_FILE);
  return installSkillAsFile(skillsFolderPath(skillName), { render: (skill) => renderSkillFile(skillName, skill) });
}
