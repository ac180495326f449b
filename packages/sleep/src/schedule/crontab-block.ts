import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

/**
 * Sleep's lines in a user's crontab live between two comment lines of its own, one line per
 * project, each ending with a comment that carries the project's hash. Only that block is ever
 * edited; every byte before and after it is written back as it was read.
 */
export const CRONTAB_BLOCK_START = '# BEGIN skillopt-sleep: nightly runs, one line per project (edit with skillopt-sleep schedule and unschedule)';
export const CRONTAB_BLOCK_END = '# END skillopt-sleep';

const PROJECT_MARKER_PREFIX = '# skillopt-sleep project ';
const PROJECT_MARKER = /\s# skillopt-sleep project ([0-9a-f]+)\s*$/;

/** The comment that ends a project's line: the cron line of the same project is found (and replaced) by it. */
export function projectMarker(projectHash: string): string {
  return `${PROJECT_MARKER_PREFIX}${projectHash}`;
}

/** The project hash a line of the block carries, if it is one of Sleep's. */
function markedProject(line: string): string | undefined {
  return PROJECT_MARKER.exec(line)?.[1];
}

interface Line {
  start: number;
  end: number;
  /** Without its line ending. */
  text: string;
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline + 1;
    lines.push({ start, end, text: text.slice(start, newline === -1 ? text.length : newline).replace(/\r$/, '') });
    start = end;
  }
  return lines;
}

interface Block {
  /** Everything before the start line and after the end line, byte for byte. */
  before: string;
  after: string;
  startLine: string;
  endLine: string;
  /** The lines between the markers. */
  inner: string[];
}

function damagedBlock(problem: string): SkillOptError {
  return new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: `Your crontab's skillopt-sleep block is damaged: ${problem}. Nothing was changed; fix it with \`crontab -e\` (the block starts with "${CRONTAB_BLOCK_START}" and ends with "${CRONTAB_BLOCK_END}").`,
  });
}

function findBlock(text: string): Block | undefined {
  const lines = linesOf(text);
  const starts = lines.flatMap((line, index) => (line.text.trimEnd() === CRONTAB_BLOCK_START ? [index] : []));
  const ends = lines.flatMap((line, index) => (line.text.trimEnd() === CRONTAB_BLOCK_END ? [index] : []));
  if (starts.length === 0 && ends.length === 0) return undefined;
  if (starts.length > 1 || ends.length > 1) throw damagedBlock('it has more than one start or end line');
  const [startIndex, endIndex] = [starts[0], ends[0]];
  if (startIndex === undefined) throw damagedBlock('its end line has no start line');
  if (endIndex === undefined) throw damagedBlock('its start line has no end line');
  if (endIndex < startIndex) throw damagedBlock('its end line comes before its start line');
  const startLine = lines[startIndex] as Line;
  const endLine = lines[endIndex] as Line;
  return {
    before: text.slice(0, startLine.start),
    after: text.slice(endLine.end),
    startLine: text.slice(startLine.start, startLine.end),
    endLine: text.slice(endLine.start, endLine.end),
    inner: lines.slice(startIndex + 1, endIndex).map((line) => line.text),
  };
}

function withNewline(line: string): string {
  return line.endsWith('\n') ? line : `${line}\n`;
}

function assemble(block: Block, inner: readonly string[]): string {
  // A block left with no line of its own is removed with its markers: unscheduling the last project leaves the crontab as it was.
  if (inner.every((line) => line.trim() === '')) return block.before + block.after;
  return block.before + withNewline(block.startLine) + inner.map((line) => `${line}\n`).join('') + withNewline(block.endLine) + block.after;
}

/** The scheduled projects' lines in the block, by project hash. */
export function scheduledCronLines(crontab: string): Array<{ projectHash: string; line: string }> {
  return (findBlock(crontab)?.inner ?? []).flatMap((line) => {
    const projectHash = markedProject(line);
    return projectHash === undefined ? [] : [{ projectHash, line }];
  });
}

/** The crontab with the project's line put in the block: in place of its earlier line, else at the end of the block, which is added at the end of the crontab when there is none. */
export function withCronLine(crontab: string, projectHash: string, line: string): { crontab: string; replaced: boolean } {
  const block = findBlock(crontab);
  if (block === undefined) {
    const before = crontab === '' || crontab.endsWith('\n') ? crontab : `${crontab}\n`;
    return { crontab: `${before}${CRONTAB_BLOCK_START}\n${line}\n${CRONTAB_BLOCK_END}\n`, replaced: false };
  }
  const index = block.inner.findIndex((existing) => markedProject(existing) === projectHash);
  const inner = index === -1 ? [...block.inner, line] : block.inner.map((existing, position) => (position === index ? line : existing));
  return { crontab: assemble(block, inner), replaced: index !== -1 };
}

/** The crontab without the lines of one project (or, with `all`, of every project), and the lines removed. */
export function withoutCronLines(crontab: string, which: { projectHash: string } | 'all'): { crontab: string; removed: string[] } {
  const block = findBlock(crontab);
  if (block === undefined) return { crontab, removed: [] };
  const isRemoved = (line: string) => {
    const projectHash = markedProject(line);
    return projectHash !== undefined && (which === 'all' || projectHash === which.projectHash);
  };
  const removed = block.inner.filter(isRemoved);
  if (removed.length === 0) return { crontab, removed };
  return {
    crontab: assemble(
      block,
      block.inner.filter((line) => !isRemoved(line)),
    ),
    removed,
  };
}
