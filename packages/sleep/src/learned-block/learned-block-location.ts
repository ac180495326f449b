import { ERROR_CODES, SkillOptError } from '@skillopt/contract/errors';
import { LEARNED_END_MARKER, LEARNED_START_MARKER, UPSTREAM_LEARNED_END_MARKER, UPSTREAM_LEARNED_START_MARKER } from '@skillopt/optimizer';

/** Which spelling of the markers a block uses: ours, or the original SkillOpt-Sleep's. */
export type LearnedBlockSpelling = 'ours' | 'upstream';

/** Where the learned block stands: `[start, end)` runs from its start marker through its end marker. */
export interface LearnedBlockLocation {
  spelling: LearnedBlockSpelling;
  start: number;
  end: number;
  /** The text between the two markers. */
  inner: string;
}

const SPELLINGS: readonly { spelling: LearnedBlockSpelling; startMarker: string; endMarker: string }[] = [
  { spelling: 'ours', startMarker: LEARNED_START_MARKER, endMarker: LEARNED_END_MARKER },
  { spelling: 'upstream', startMarker: UPSTREAM_LEARNED_START_MARKER, endMarker: UPSTREAM_LEARNED_END_MARKER },
];

interface MarkerOccurrence {
  spelling: LearnedBlockSpelling;
  role: 'start' | 'end';
  marker: string;
  index: number;
}

function occurrencesOf(document: string): MarkerOccurrence[] {
  const found: MarkerOccurrence[] = [];
  for (const { spelling, startMarker, endMarker } of SPELLINGS) {
    for (const [role, marker] of [
      ['start', startMarker],
      ['end', endMarker],
    ] as const) {
      for (let index = document.indexOf(marker); index !== -1; index = document.indexOf(marker, index + marker.length)) {
        found.push({ spelling, role, marker, index });
      }
    }
  }
  return found.sort((left, right) => left.index - right.index);
}

function lineNumberAt(document: string, index: number): number {
  let line = 1;
  for (let position = document.indexOf('\n'); position !== -1 && position < index; position = document.indexOf('\n', position + 1)) line += 1;
  return line;
}

function malformed(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message });
}

/**
 * The document's learned block, or undefined when it has none. The original stripped every block
 * it found and treated an unterminated start marker as running to the end of the document, so
 * one missing end marker silently deleted the user's text after it (§9 item 14). Here any marker
 * that does not pair up (a start without its end, an end without a start, a marker of the other
 * spelling inside a block, a second block) is an error naming its line: only the user can tell
 * which text was meant to be inside.
 */
export function locateLearnedBlock(document: string): LearnedBlockLocation | undefined {
  const [first, second, ...rest] = occurrencesOf(document);
  if (first === undefined) return undefined;
  const firstLine = lineNumberAt(document, first.index);
  if (first.role === 'end') {
    throw malformed(`line ${firstLine}: the learned-block end marker "${first.marker}" has no start marker before it`);
  }
  const expectedEnd = SPELLINGS.find((candidate) => candidate.spelling === first.spelling)?.endMarker ?? '';
  if (second === undefined || second.role !== 'end' || second.spelling !== first.spelling) {
    const found = second === undefined ? 'the document ends first' : `line ${lineNumberAt(document, second.index)} has "${second.marker}" first`;
    throw malformed(
      `line ${firstLine}: the learned-block start marker "${first.marker}" is not closed by "${expectedEnd}" (${found}); add the end marker where the learned rules stop`,
    );
  }
  const extra = rest[0];
  if (extra !== undefined) {
    throw malformed(
      `line ${lineNumberAt(document, extra.index)}: a second learned-block marker "${extra.marker}"; a skill has one learned block, merge them by hand`,
    );
  }
  return {
    spelling: first.spelling,
    start: first.index,
    end: second.index + second.marker.length,
    inner: document.slice(first.index + first.marker.length, second.index),
  };
}
