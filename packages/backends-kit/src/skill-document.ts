/** What a harness lists a skill under: its name and the one line it shows the model. */
export interface SkillDocumentHeading {
  name: string;
  description: string;
}

/**
 * A skill as the Agent Skills standard's SKILL.md wants it, which Codex, Pi and other harnesses
 * read from their skills folders: front matter with the name and description the harness lists
 * for the model, then the skill itself, unchanged.
 */
export function renderSkillDocument(heading: SkillDocumentHeading, skill: string): string {
  return ['---', `name: ${heading.name}`, `description: ${heading.description}`, '---', '', skill].join('\n');
}
