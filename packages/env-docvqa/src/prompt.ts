/**
 * What the target reads: the skill as its system prompt, followed by one fixed instruction about
 * the answer format, and a user message with the question (as text) and the page image (as an
 * image part); an agent gets the text as its `task.md` and the image as a file beside it. The
 * gold answers never appear in any.
 */

/** The fixed part of the system prompt: what the task is and where the final answer goes. */
export const ANSWER_FORMAT_INSTRUCTION =
  'The user message holds a question about the attached document page image. Read the answer from the page. ' +
  'You may reason first; end your reply with your final answer inside <answer></answer>.';

/** The system prompt: the skill (when there is one) under a heading, then the answer-format instruction. */
export function buildSystemPrompt(skill: string): string {
  const trimmed = skill.trim();
  return trimmed === '' ? ANSWER_FORMAT_INSTRUCTION : `# Skill\n\n${trimmed}\n\n# Task\n\n${ANSWER_FORMAT_INSTRUCTION}`;
}

/**
 * What an agent's prompt adds about the task (its `task.md` is the text part of the user
 * message): where the page is. The file is named without backticks, since it is an image.
 */
export function buildAgentTaskNotes(pageImageName: string): string {
  return `It asks about the document page in the image file ${pageImageName} beside it: open the image and read the answer from the page.`;
}

/** The text part of the user message: `## Question` and a reminder of the answer tags. */
export function buildUserText(question: string): string {
  return `## Question\n\n${question}\n\nGive the final answer inside <answer></answer>.`;
}
