/**
 * What the target reads: the skill as its system prompt, followed by one fixed instruction about
 * the answer format, and a user message with the search snippets (when the item has them) and the
 * question. An agent gets the user message as its `task.md`. The gold answers never appear in any.
 */

/** The fixed part of the system prompt: where the final answer goes. */
export const ANSWER_FORMAT_INSTRUCTION =
  'Answer the question in the user message. You may reason first; end your reply with your final answer inside <answer></answer>.';

/**
 * What an agent's prompt adds about the task (its `task.md` is the user message below): the
 * answer's form. The skill reaches it through its harness, not through the prompt.
 */
export const AGENT_TASK_NOTES = 'It is a question to answer from the search results it gives; keep the final answer short, the exact words that answer it.';

/** The system prompt: the skill (when there is one) under a heading, then the answer-format instruction. */
export function buildSystemPrompt(skill: string): string {
  const trimmed = skill.trim();
  return trimmed === '' ? ANSWER_FORMAT_INSTRUCTION : `# Skill\n\n${trimmed}\n\n# Task\n\n${ANSWER_FORMAT_INSTRUCTION}`;
}

const DOCUMENT_MARKER = '[DOC]';
const TRUNCATION_NOTE = '\n[... search results truncated ...]';

/**
 * Shortens search snippets to at most `maxCharacters` (plus a short note when something was cut).
 * SearchQA contexts are runs of `[DOC] [TLE] title [PAR] snippet` blocks; whole blocks are kept from
 * the start while they fit, each with its `[DOC]` marker. When even the first block is too long,
 * its first `maxCharacters` characters are kept.
 */
export function truncateContext(context: string, maxCharacters: number): string {
  if (context.length <= maxCharacters) return context;
  const blocks = splitIntoDocuments(context);
  let kept = '';
  for (const block of blocks) {
    const next = kept === '' ? block : `${kept} ${block}`;
    if (next.length > maxCharacters) break;
    kept = next;
  }
  if (kept === '') kept = context.slice(0, maxCharacters);
  return `${kept}${TRUNCATION_NOTE}`;
}

function splitIntoDocuments(context: string): string[] {
  const blocks: string[] = [];
  let start = context.indexOf(DOCUMENT_MARKER);
  if (start === -1) return [context];
  const preamble = context.slice(0, start).trim();
  if (preamble !== '') blocks.push(preamble);
  while (start !== -1) {
    const next = context.indexOf(DOCUMENT_MARKER, start + DOCUMENT_MARKER.length);
    blocks.push(context.slice(start, next === -1 ? undefined : next).trim());
    start = next;
  }
  return blocks.filter((block) => block !== '');
}

/** The user message: `## Search results` (when there are any) and `## Question`. */
export function buildUserPrompt(question: string, context: string | undefined, maxContextCharacters: number): string {
  const sections: string[] = [];
  if (context !== undefined && context.trim() !== '') {
    sections.push(`## Search results\n\n${truncateContext(context.trim(), maxContextCharacters)}`);
  }
  sections.push(`## Question\n\n${question}`);
  return sections.join('\n\n');
}
