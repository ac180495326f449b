import { asObject, asString } from '../json-fields.js';

/**
 * The developer's words in a Codex message, without what the harness wrote into the same
 * conversation: the environment block, internal context, and the AGENTS.md preamble Codex sends as
 * a user message (upstream-sleep §2.2). Secrets, NULs and meta prompts are the session builder's
 * to handle.
 */

// Harness blocks Codex writes as user-role text: the whole part is dropped. `<user_instructions>`
// is how older versions wrapped AGENTS.md.
const HARNESS_BLOCK_OPENINGS = ['<environment_context', '<codex_internal_context', '<user_instructions'];
const PREAMBLE_OPENING = '# AGENTS.md instructions';
const PREAMBLE_MARKER = '--- project-doc ---';
const PREAMBLE_CLOSINGS = ['</environment_context>', '</INSTRUCTIONS>'];

/** The texts of a message's content: a string, a list of strings or `{text}` items, or items nesting `{content}`. */
function contentTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (Array.isArray(content)) return content.flatMap(contentTexts);
  const item = asObject(content);
  if (item === undefined) return [];
  const text = asString(item.text);
  if (text !== undefined) return [text];
  return item.content === undefined ? [] : contentTexts(item.content);
}

/** What is left of one text part once the harness's own blocks are cut out ('' when nothing is). */
function withoutHarnessText(text: string): string {
  const trimmed = text.trim();
  if (HARNESS_BLOCK_OPENINGS.some((opening) => trimmed.startsWith(opening))) return '';
  if (!trimmed.startsWith(PREAMBLE_OPENING) && !trimmed.includes(PREAMBLE_MARKER)) return trimmed;
  // A preamble with the developer's prompt after it: keep only what follows its last closing tag.
  const end = Math.max(
    ...PREAMBLE_CLOSINGS.map((closing) => {
      const at = trimmed.lastIndexOf(closing);
      return at === -1 ? -1 : at + closing.length;
    }),
  );
  if (end === -1) return '';
  const tail = trimmed.slice(end).trim();
  return tail.startsWith('<') ? '' : tail;
}

/** The developer's text of a message's content, harness blocks cut out of each part. */
export function messageText(content: unknown): string {
  return contentTexts(content)
    .map(withoutHarnessText)
    .filter((text) => text !== '')
    .join('\n');
}
