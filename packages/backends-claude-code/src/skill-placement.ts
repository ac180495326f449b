import { installSkillAsFile, type SkillInstallation } from '@skillopt/backends-kit';
import type { SkillPlacement } from './config-schema.js';

/** The workspace-relative file a placement writes. */
export function skillFilePath(placement: SkillPlacement, skillName: string): string {
  return placement === 'claude-md' ? 'CLAUDE.md' : `.claude/skills/${skillName}/SKILL.md`;
}

/**
 * The description Claude Code lists the project skill under. Claude Code shows a project skill's
 * name and description only, and loads its text when the model asks for it; the description names
 * the file, so a model (the simulator included) that reads files instead finds it too.
 */
function projectSkillDescription(skillName: string): string {
  return `The skill document for this task, at ${skillFilePath('project-skill', skillName)}: read it (or load it with the Skill tool) before you start, and follow it.`;
}

/** A project skill: front matter Claude Code requires (name, description), then the skill as it is. */
export function renderProjectSkill(skill: string, skillName: string): string {
  return `---\nname: ${skillName}\ndescription: ${projectSkillDescription(skillName)}\n---\n\n${skill}`;
}

/**
 * Where a target run's skill goes: a project skill, which Claude Code lists for the model to load,
 * or CLAUDE.md, whose text Claude Code puts into the first message itself.
 */
export function claudeCodeSkillInstallation(placement: SkillPlacement, skillName: string): SkillInstallation {
  return placement === 'claude-md'
    ? installSkillAsFile(skillFilePath(placement, skillName))
    : installSkillAsFile(skillFilePath(placement, skillName), { render: (skill) => renderProjectSkill(skill, skillName) });
}
