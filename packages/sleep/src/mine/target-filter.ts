import type { TaskRecord } from '../tasks/task-record.js';

export interface TargetSkill {
  /** The skill document's text. */
  text: string;
  /** Its path: the folder and file names say what it is about too. */
  path: string;
}

/** Words too common in requests and skills to say what either is about. */
const STOP_WORDS = new Set(
  (
    'the and for with this that from into your you are was were will can could should would use used using ' +
    'when what how why where which who whom all any not but have has had its our their they them then than ' +
    'there here also only just like make made more most some such each every about over under after before ' +
    'out one two new get got let please need needs want does did done doing been being very much many other ' +
    'same way ways file files code skill skills md readme task tasks step steps note notes example examples'
  ).split(' '),
);
/** How many of the body's most frequent words count as weak keywords. */
const BODY_KEYWORDS = 180;
/**
 * Requests about a topic rarely use the skill's own words for it: a skill on MCP is asked about in
 * terms of servers and setup (in Russian too), one on conflicts in terms of merges and rebases.
 */
const EXPANSIONS: Record<string, readonly string[]> = {
  mcp: ['server', 'servers', 'setup', 'configure', 'config', 'install', 'connect', 'сервер', 'сервера', 'настройка', 'настроить', 'подключить'],
  conflict: ['conflict', 'conflicts', 'merge', 'rebase', 'git', 'resolve'],
  conflicts: ['conflict', 'conflicts', 'merge', 'rebase', 'git', 'resolve'],
};

/** Lower-cased words of three or more letters; `snake_case`, `dotted.names` and paths count by their parts. */
export function keywordTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}_.\-/]+/gu) ?? []) {
    for (const token of word.split(/[_.\-/]+/)) {
      if (token.length >= 3 && !/^\d+$/.test(token) && !STOP_WORDS.has(token)) tokens.push(token);
    }
  }
  return tokens;
}

function expanded(keywords: Set<string>): Set<string> {
  const result = new Set(keywords);
  for (const keyword of keywords) for (const extra of EXPANSIONS[keyword] ?? []) result.add(extra);
  return result;
}

/**
 * The tasks that bear on the skill being trained, most relevant first. The skill's path and
 * headings give strong keywords, its most frequent body words weak ones; a task is kept with one
 * strong hit or two weak ones and ranked by 3 × strong + weak (ties keep their order). When no task
 * matches, all are kept: a skill whose words the requests do not share still gets a night.
 */
export function filterTasksForTarget(tasks: readonly TaskRecord[], target: TargetSkill): TaskRecord[] {
  const headings = target.text
    .split('\n')
    .filter((line) => /^\s{0,3}#{1,6}\s/.test(line))
    .join('\n');
  const strong = expanded(new Set([...keywordTokens(target.path), ...keywordTokens(headings)]));
  const counts = new Map<string, number>();
  for (const token of keywordTokens(target.text)) counts.set(token, (counts.get(token) ?? 0) + 1);
  const frequent = [...counts.entries()].sort((left, right) => right[1] - left[1]).slice(0, BODY_KEYWORDS);
  const weak = new Set([...strong, ...frequent.map(([token]) => token)]);
  const scored = tasks.flatMap((task, index) => {
    const words = new Set(keywordTokens(`${task.intent}\n${task.contextExcerpt}`));
    const strongHits = [...words].filter((word) => strong.has(word)).length;
    const weakHits = [...words].filter((word) => weak.has(word)).length;
    return strongHits >= 1 || weakHits >= 2 ? [{ task, index, score: 3 * strongHits + weakHits }] : [];
  });
  if (scored.length === 0) return [...tasks];
  return scored.sort((left, right) => right.score - left.score || left.index - right.index).map((entry) => entry.task);
}
