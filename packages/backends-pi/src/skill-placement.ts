import { installSkillAsFile, renderSkillDocument, type SkillInstallation } from '@skillopt/backends-kit';
import type { SkillPlacement } from './config-schema.js';

/** Where Pi reads a project's instructions: AGENTS.md in its working folder (and the folders above it). */
export const AGENTS_FILE = 'AGENTS.md';

/** The project skills folder Pi lists for the model (`<root>/.pi/skills/<name>/SKILL.md`). */
export function skillsFolderPath(skillName: string): string {
  return `.pi/skills/${skillName}/SKILL.md`;
}

const SKILL_DESCRIPTION = 'The instructions to follow for this task; read them before you start and apply them in your answer.';

/**
 * Puts the skill where Pi reads it. `agents-md`: AGENTS.md, whose text Pi puts into its system
 * prompt under "Project Context". `skills-folder`: a project skill (the Agent Skills standard's
 * SKILL.md), which Pi lists by name, description and path, and the model opens with its read tool.
 */
export function piSkillInstallation(placement: SkillPlacement, skillName: string): SkillInstallation {
  if (placement === 'agents-md') return installSkillAsFile(AGENTS_FILE);
  return installSkillAsFile(skillsFolderPath(skillName), {
    render: (skill) => renderSkillDocument({ name: skillName, description: SKILL_DESCRIPTION }, skill),
  });
}
