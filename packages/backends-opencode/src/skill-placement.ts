import { installSkillAsFile, type SkillInstallation } from '@skillopt/backends-kit';
import type { SkillPlacement } from './config-schema.js';

/** Where OpenCode reads a project's instructions: AGENTS.md at the root of its working folder. */
export const AGENTS_FILE = 'AGENTS.md';

/** The project skills folder OpenCode lists for the model (`<root>/.opencode/skills/<name>/SKILL.md`). */
export function skillsFolderPath(skillName: string): string {
  return `.opencode/skills/${skillName}/SKILL.md`;
}

/**
 * A skill as OpenCode's skills folder wants it: front matter with the name (which must match the
 * folder's) and the one-line description OpenCode shows the model in its skill tool, then the skill.
 */
export function renderSkillFile(skillName: string, skill: string): string {
  return [
    '---',
    `name: ${skillName}`,
    'description: The instructions to follow for this task; load them before you start and apply them in your answer.',
    '---',
    '',
    skill,
  ].join('\n');
}

/**
 * Puts the skill where OpenCode reads it. `agents-md`: AGENTS.md, whose text OpenCode itself puts
 * into the model's system prompt. `skills-folder`: a project skill, which OpenCode's skill tool
 * lists by name and description, and the model loads with it.
 */
export function opencodeSkillInstallation(placement: SkillPlacement, skillName: string): SkillInstallation {
  if (placement === 'agents-md') return installSkillAsFile(AGENTS_FILE);
  return installSkillAsFile(skillsFolderPath(skillName), { render: (skill) => renderSkillFile(skillName, skill) });
}
