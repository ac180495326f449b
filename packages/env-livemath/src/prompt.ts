import type { LiveMathChoice } from './items.js';

/**
 * What the target reads: the skill as its system prompt, followed by one fixed instruction about
 * the answer format, and a user message with the question, the lettered choices and (only when the
 * config asks for them) the source theorem and a proof sketch; an agent gets that user message as
 * its `task.md`. Which choice is correct is never said; the choices themselves are, of course, shown.
 */

/** The fixed part of the system prompt: how to answer. */
export const ANSWER_FORMAT_INSTRUCTION =
  'The user message holds a multiple-choice mathematics question; exactly one choice is correct. ' +
  'You may reason first. End your reply with the letter of the choice you pick, and nothing else, inside <answer></answer>.';

/** What an agent's prompt adds about the task (its `task.md` is the user message below): the answer's form. */
export const AGENT_TASK_NOTES =
  'It is a multiple-choice mathematics question; exactly one choice is correct. The final answer is the letter of the choice you pick, and nothing else.';

/** The system prompt: the skill (when there is one) under `# Skill`, then the instruction under `# Task`. */
export function buildSystemPrompt(skill: string): string {
  const trimmed = skill.trim();
  return trimmed === '' ? ANSWER_FORMAT_INSTRUCTION : `# Skill\n\n${trimmed}\n\n# Task\n\n${ANSWER_FORMAT_INSTRUCTION}`;
}

/** One line per choice: `A. text`. */
export function formatChoices(choices: readonly LiveMathChoice[]): string {
  return choices.map((choice) => `${choice.label}. ${choice.text}`).join('\n');
}

export interface UserPromptParts {
  question: string;
  choices: readonly LiveMathChoice[];
  /** Shown under `## Theorem` when given (config `use_theorem`). */
  theorem?: string;
  /** Shown under `## Proof sketch` when given (config `use_sketch`). */
  sketch?: string;
}

/** The user message: `## Question`, `## Choices`, then `## Theorem` and `## Proof sketch` when given. */
export function buildUserPrompt(parts: UserPromptParts): string {
  const sections = [`## Question\n\n${parts.question}`, `## Choices\n\n${formatChoices(parts.choices)}`];
  if (parts.theorem !== undefined && parts.theorem.trim() !== '') sections.push(`## Theorem\n\n${parts.theorem.trim()}`);
  if (parts.sketch !== undefined && parts.sketch.trim() !== '') sections.push(`## Proof sketch\n\n${parts.sketch.trim()}`);
  return sections.join('\n\n');
}
