import type { ScaffoldContext } from './context.js';

/** skills/initial.md: the skill document training starts from (the env's `initialSkill()`). */
export function buildInitialSkill(context: ScaffoldContext): string {
  return `# ${context.name}

Answer short general-knowledge questions.

- Think briefly, then give one final answer.
`;
}
