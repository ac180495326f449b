/**
 * Reading a prompt for the files an agent is asked to read: workspace-relative names in backticks
 * (`task.md`) or after a reading verb ("Read task.md and answer"), the skill files a skills listing
 * points at, and the working directory the harness states.
 */

const FILE_NAME = /^(?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)*\.[A-Za-z][A-Za-z0-9]{0,7}$/;
const BACKTICKED = /`([^`\n]{1,240})`/g;
const AFTER_READING_VERB = /\b(?:read|open|view|cat|load)\s+(?:the\s+file\s+)?([\w./-]+\.[A-Za-z][A-Za-z0-9]{0,7})\b/gi;
/** A harness's context blocks (`<system-reminder>`, `<environment_context>`, …) are not the prompt's own words. */
const TAGGED_BLOCK = /<([a-z][\w-]*)(?:\s[^>]*)?>[\s\S]*?<\/\1>/gi;
const MAXIMUM_FILES = 8;

/** The file names the user prompt asks to read, in the order it names them, each once. */
export function filesNamedInPrompt(userTexts: readonly string[]): string[] {
  const names: string[] = [];
  for (const text of userTexts) {
    const own = text.replace(TAGGED_BLOCK, ' ');
    const found = [...own.matchAll(BACKTICKED)].map((match) => match[1] ?? '').concat([...own.matchAll(AFTER_READING_VERB)].map((match) => match[1] ?? ''));
    const positions = new Map(found.map((name) => [name, own.indexOf(name)]));
    for (const name of [...found].sort((left, right) => (positions.get(left) ?? 0) - (positions.get(right) ?? 0)))
      if (FILE_NAME.test(name) && !names.includes(name)) names.push(name);
  }
  return names.slice(0, MAXIMUM_FILES);
}

const CWD_TAG = /<cwd>\s*([^<\n]+?)\s*<\/cwd>/i;
const CWD_SENTENCE = /\b(?:current |primary )?working directory(?: is)?\s*:?\s*`?(\/[^\s`'"<>]+)/i;

/** The working directory the harness states in its context (`<cwd>…</cwd>`, "Working directory: /…"), if any. */
export function workingDirectoryOf(texts: readonly string[]): string | undefined {
  for (const text of texts) {
    const found = CWD_TAG.exec(text) ?? CWD_SENTENCE.exec(text);
    if (found?.[1] !== undefined) return found[1].replace(/[.,;:]+$/, '');
  }
  return undefined;
}

const SKILL_PATH = /(?<![\w.~/-])\/?(?:[\w.~-]+\/)+SKILL\.md\b/g;
/** A skills listing's roots table: "- `r1` = `/home/user/project/.agents/skills`". */
const SKILL_ROOT = /`([\w-]+)`\s*=\s*`([^`\n]+)`/g;

/**
 * The SKILL.md files a skills listing points at that belong to the workspace: a relative path, or
 * an absolute one inside the working directory (a CLI's own built-in skills live in its home, not
 * the task's workspace). Short paths of a roots table (`r1/name/SKILL.md`) are expanded first.
 */
export function workspaceSkillFiles(texts: readonly string[], workingDirectory: string | undefined): string[] {
  const files: string[] = [];
  for (const text of texts) {
    const roots = new Map([...text.matchAll(SKILL_ROOT)].map((match) => [match[1] ?? '', (match[2] ?? '').replace(/\/+$/, '')]));
    for (const match of text.matchAll(SKILL_PATH)) {
      const raw = match[0];
      const [first, ...rest] = raw.split('/');
      const root = first === undefined ? undefined : roots.get(first);
      const path = root !== undefined ? [root, ...rest].join('/') : raw;
      const inWorkspace = path.startsWith('/')
        ? workingDirectory !== undefined && path.startsWith(`${workingDirectory.replace(/\/+$/, '')}/`)
        : !path.startsWith('~');
      if (inWorkspace && !files.includes(path)) files.push(path);
    }
  }
  return files.slice(0, MAXIMUM_FILES);
}
