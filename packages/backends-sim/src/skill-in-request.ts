import { skillFromSystemPrompt } from './target.js';

const SKILL_FILE = /(?:^|\/)(?:SKILL|AGENTS|CLAUDE)\.md$/i;
const FRONT_MATTER = /^---\n[\s\S]*?\n---\n?/;
/**
 * A line introducing an instruction file's contents, as the harnesses write it: Claude Code's
 * "Contents of /w/CLAUDE.md (…):", Codex's "# AGENTS.md instructions for /w", a Cursor project
 * rule's "Contents of /w/.cursor/rules/<name>.mdc:", Copilot's "<custom_instruction>" (a line of
 * its own in the system prompt), OpenCode's "Instructions from: /w/AGENTS.md". Anchored at the line's
 * start: a harness's own prose about these files ("… AGENTS.md files hold instructions for …")
 * is no heading, and reading on from it took in whatever followed (a skills listing with the
 * run's temporary paths), so the same task got another skill on every run. Pi's "## /w/AGENTS.md"
 * (the file's absolute path as a heading of its "Project Context") is one too.
 */
const INSTRUCTION_FILE_HEADING =
  /^(?:Contents of \S*(?:\b(?:AGENTS|CLAUDE)\.md\b|\/\.cursor\/rules\/[\w.-]+\.mdc\b).*|#+[ \t]*(?:AGENTS|CLAUDE)\.md instructions for\b.*|#+[ \t]*\/(?:\S*\/)?(?:AGENTS|CLAUDE)\.md[ \t]*|[ \t]*<custom_instruction>[ \t]*|Instructions from: \S*\b(?:AGENTS|CLAUDE)\.md)$/gim;
/**
 * Where such contents end: the closing tag of the block they sit in, the next file's heading
 * (OpenCode's "Instructions from: …" among them), or what Pi writes after its context files (its
 * skills listing, the date and working directory).
 */
const CONTENTS_END =
  /^\s*<\/[\w-]+>\s*$|^Contents of |^Instructions from: |^#+[ \t]*\/(?:\S*\/)?(?:AGENTS|CLAUDE)\.md[ \t]*$|^The following skills provide\b|^Current date: /im;

function withoutFrontMatter(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(FRONT_MATTER, '').trim();
}

/** The contents of AGENTS.md / CLAUDE.md files a harness put into its context messages. */
function instructionFileContents(text: string): string[] {
  const contents: string[] = [];
  for (const heading of text.matchAll(INSTRUCTION_FILE_HEADING)) {
    const line = heading[0];
    let rest = text.slice((heading.index ?? 0) + line.length).replace(/^\s*<INSTRUCTIONS>\s*\n?/i, '');
    const end = CONTENTS_END.exec(rest);
    if (end) rest = rest.slice(0, end.index);
    if (rest.trim() !== '') contents.push(rest.trim());
  }
  return contents;
}

/**
 * The skill of an agent's request, wherever the harness put it: skill files the model read with a
 * tool (SKILL.md, AGENTS.md, CLAUDE.md; front matter left out), AGENTS.md / CLAUDE.md contents the
 * harness inlined in a context message (a system reminder, a developer message), a `<skill>` block
 * or `# Skill` section of the system prompt. Several found are one skill, in that order. With none,
 * the system prompt is read as in chat (`skillFromSystemPrompt`).
 */
export function skillInAgentRequest(
  systemText: string,
  contextTexts: readonly string[],
  filesRead: ReadonlyMap<string, string>,
  findInSystemPrompt: (system: string) => string = skillFromSystemPrompt,
): string {
  const found: string[] = [];
  for (const [path, text] of filesRead) if (SKILL_FILE.test(path) && text.trim() !== '') found.push(withoutFrontMatter(text));
  for (const text of [systemText, ...contextTexts]) found.push(...instructionFileContents(text));
  const inSystem = findInSystemPrompt(systemText);
  if (inSystem !== systemText) found.push(inSystem);
  const unique = found.filter((text, index) => found.indexOf(text) === index);
  return unique.length > 0 ? unique.join('\n\n') : inSystem;
}
