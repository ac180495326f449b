/**
 * What the target reads: the skill as its system prompt under `# Skill`, then the fixed task
 * instructions under `# Task` (the tools and the answer format); a user message with the question,
 * the item's documents and, when the item has them, its source-page hints. An agent gets that user
 * message as its `task.md` and copies of the documents beside it. The gold answer never appears in any.
 */

/** The fixed part of the system prompt. */
export const TASK_INSTRUCTIONS = [
  'Answer the question in the user message from the documents listed there.',
  'You can call three tools, which see only those documents: `glob` lists document names, `grep` finds lines matching a regular expression, `read` returns numbered lines of one document.',
  'Look figures up in the documents rather than relying on memory.',
  'When you are done, reply without calling a tool and put your final answer inside <answer></answer>.',
].join(' ');

/** What the system prompt adds in online mode, and only then: the search tool and what it is for. */
export const SEARCH_INSTRUCTIONS =
  'You can also call `search` with one web-search query; it returns numbered results (title, URL, snippet), and only a few searches are allowed per turn. Use it to find which document or page holds a figure; take the figure itself from the documents.';

/**
 * What an agent's prompt adds about the task (its `task.md` is the user message below): where the
 * documents are and that figures come from them.
 */
export const AGENT_TASK_NOTES =
  'The documents it lists are in the documents folder beside it, under the same names; look figures up in them rather than relying on memory.';

/** The system prompt: the skill (when there is one) under a heading, then the task instructions (with the search tool's when it is offered). */
export function buildSystemPrompt(skill: string, options: { search?: boolean } = {}): string {
  const trimmed = skill.trim();
  const instructions = options.search === true ? `${TASK_INSTRUCTIONS} ${SEARCH_INSTRUCTIONS}` : TASK_INSTRUCTIONS;
  return trimmed === '' ? instructions : `# Skill\n\n${trimmed}\n\n# Task\n\n${instructions}`;
}

/** The user message: `## Question`, `## Documents` (the item's file names) and `## Source hints` (its page URLs, when present). */
export function buildUserPrompt(question: string, files: readonly string[], sourceDocs: readonly string[] = []): string {
  const sections = [`## Question\n\n${question}`, `## Documents\n\n${files.map((file) => `- ${file}`).join('\n')}`];
  if (sourceDocs.length > 0) sections.push(`## Source hints\n\nThe answer comes from these pages:\n${sourceDocs.map((url) => `- ${url}`).join('\n')}`);
  return sections.join('\n\n');
}
