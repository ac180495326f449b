import { installSkillAsFile, type SkillInstallation } from '@skillopt/backends-kit';
import type { SkillPlacement } from './config-schema.js';

/** Where Copilot reads a repository's custom instructions; their text goes into its system prompt. */
export const COPILOT_INSTRUCTIONS_FILE = '.github/copilot-instructions.md';

/** The project skills folder Copilot lists for the model (`.github/skills/<name>/SKILL.md`). */
export function skillsFolderPath(skillName: string): string {
  return `.github/skills/${skillName}/SKILL.md`;
}

/**
 * A skill as Copilot's skills folder wants it: front matter with the name and the description
 * Copilot lists it under, then the skill itself. The description names the file, so a model that
 * reads files rather than calling the skill tool finds it too; it is a quoted YAML string, since
 * Copilot silently drops a skill whose front matter does not parse.
 */
export function renderSkillFile(skillName: string, skill: string): string {
  const description = `The skill document for this task (${skillsFolderPath(skillName)}); read it before you start, and follow it.`;
  return ['---', `name: ${skillName}`, `description: ${JSON.stringify(description)}`, '---', '', skill].join('\n');
}

/**
 * Puts the skill where Copilot reads it. `copilot-instructions`: `.github/copilot-instructions.md`,
 * whose text Copilot puts into the model's system prompt itself. `skills-folder`: a project skill,
 * which Copilot lists by name and description, and the model loads with its skill tool or reads.
 */
export function copilotSkillInstallation(placement: SkillPlacement, skillName: string): SkillInstallation {
  if (placement === 'copilot-instructions') return installSkillAsFile(COPILOT_INSTRUCTIONS_FILE);
  return installSkillAsFile(skillsFolderPath(skillName), { render: (skill) => renderSkillFile(skillName, skill) });
}
