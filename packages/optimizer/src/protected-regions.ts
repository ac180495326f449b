/**
 * Protected regions of a skill document: blocks that optimizer edits must never touch. The slow
 * update block is written only by the epoch-boundary slow update, the appendix block only by
 * skill-aware reflection and the learned block only by @skillopt/sleep (gated nightly rules), so
 * a step's ordinary edits (and rewrites) leave all of them byte for byte.
 */

export const SLOW_UPDATE_START_MARKER = '<!-- SLOW_UPDATE_START -->';
export const SLOW_UPDATE_END_MARKER = '<!-- SLOW_UPDATE_END -->';
export const APPENDIX_START_MARKER = '<!-- APPENDIX_START -->';
export const APPENDIX_END_MARKER = '<!-- APPENDIX_END -->';
export const LEARNED_START_MARKER = '<!-- skillopt-sleep:learned start -->';
export const LEARNED_END_MARKER = '<!-- skillopt-sleep:learned end -->';
// Skills adopted from the original Python SkillOpt-Sleep carry its spelling of the learned block;
// it is protected as well, so an optimizer run on such a skill cannot damage those rules either.
export const UPSTREAM_LEARNED_START_MARKER = '<!-- SKILLOPT-SLEEP:LEARNED START -->';
export const UPSTREAM_LEARNED_END_MARKER = '<!-- SKILLOPT-SLEEP:LEARNED END -->';

export const PROTECTED_REGION_KINDS = ['slow-update', 'appendix', 'learned', 'upstream-learned'] as const;
export type ProtectedRegionKind = (typeof PROTECTED_REGION_KINDS)[number];

export const PROTECTED_MARKERS: Readonly<Record<ProtectedRegionKind, { start: string; end: string }>> = {
  'slow-update': { start: SLOW_UPDATE_START_MARKER, end: SLOW_UPDATE_END_MARKER },
  appendix: { start: APPENDIX_START_MARKER, end: APPENDIX_END_MARKER },
  learned: { start: LEARNED_START_MARKER, end: LEARNED_END_MARKER },
  'upstream-learned': { start: UPSTREAM_LEARNED_START_MARKER, end: UPSTREAM_LEARNED_END_MARKER },
};

const ALL_MARKERS = PROTECTED_REGION_KINDS.flatMap((kind) => [PROTECTED_MARKERS[kind].start, PROTECTED_MARKERS[kind].end]);

/** A half-open character range `[start, end)` of the document that edits must not overlap. */
export interface ProtectedRegion {
  kind: ProtectedRegionKind;
  start: number;
  end: number;
}

function allIndexesOf(text: string, needle: string): number[] {
  const indexes: number[] = [];
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) {
    indexes.push(index);
  }
  return indexes;
}

/**
 * Every protected region, in document order. A start marker opens a region that runs through the
 * first end marker after it; a start marker without an end protects everything after it, and a
 * stray end marker protects itself, so no edit can ever remove or split a marker.
 */
export function findProtectedRegions(skill: string): ProtectedRegion[] {
  const regions: ProtectedRegion[] = [];
  for (const kind of PROTECTED_REGION_KINDS) {
    const { start: startMarker, end: endMarker } = PROTECTED_MARKERS[kind];
    const consumedEnds = new Set<number>();
    let searchFrom = 0;
    for (const startIndex of allIndexesOf(skill, startMarker)) {
      if (startIndex < searchFrom) continue; // a nested start marker inside an open region
      const endIndex = skill.indexOf(endMarker, startIndex + startMarker.length);
      const regionEnd = endIndex === -1 ? skill.length : endIndex + endMarker.length;
      if (endIndex !== -1) consumedEnds.add(endIndex);
      regions.push({ kind, start: startIndex, end: regionEnd });
      searchFrom = regionEnd;
    }
    for (const endIndex of allIndexesOf(skill, endMarker)) {
      const insideRegion = regions.some((region) => region.kind === kind && endIndex >= region.start && endIndex < region.end);
      if (!consumedEnds.has(endIndex) && !insideRegion) regions.push({ kind, start: endIndex, end: endIndex + endMarker.length });
    }
  }
  return regions.sort((left, right) => left.start - right.start || left.end - right.end);
}

/** True when `[start, end)` shares at least one character with a protected region. */
export function overlapsProtectedRegion(regions: readonly ProtectedRegion[], start: number, end: number): boolean {
  return regions.some((region) => start < region.end && end > region.start);
}

/** True when inserting at `position` would put text strictly inside a protected region. */
export function isInsideProtectedRegion(regions: readonly ProtectedRegion[], position: number): boolean {
  return regions.some((region) => position > region.start && position < region.end);
}

/** The protection marker strings `text` contains, if any. */
export function markersIn(text: string): string[] {
  return ALL_MARKERS.filter((marker) => text.includes(marker));
}

/** A skill split into the text a rewrite may change and the protected blocks it must not. */
export interface DetachedProtectedRegions {
  /** The skill with every protected region taken out (and the blank lines around them tidied). */
  body: string;
  /** The protected regions' exact text, in document order. */
  blocks: string[];
}

/**
 * Takes the protected regions out of a skill so a rewrite never sees (and cannot damage) them;
 * `reattachProtectedRegions` puts them back unchanged.
 */
export function detachProtectedRegions(skill: string): DetachedProtectedRegions {
  const regions = findProtectedRegions(skill);
  const blocks: string[] = [];
  let body = '';
  let cursor = 0;
  for (const region of regions) {
    body += skill.slice(cursor, region.start);
    blocks.push(skill.slice(region.start, region.end));
    cursor = region.end;
  }
  body += skill.slice(cursor);
  // Where a block stood, its surrounding blank lines would otherwise pile up.
  if (regions.length > 0) body = body.replace(/\n{3,}/g, '\n\n');
  return { body, blocks };
}

/**
 * Puts detached protected blocks back after a rewritten body: each block byte for byte, in their
 * original order, after the body and separated from it by one blank line. Protected blocks live at
 * the end of a skill (appends go before them and new blocks are created there), so this is where
 * they stood before in every skill the optimizer writes.
 */
export function reattachProtectedRegions(body: string, blocks: readonly string[]): string {
  const trimmedBody = body.replace(/\s+$/, '');
  if (blocks.length === 0) return trimmedBody === '' ? '' : `${trimmedBody}\n`;
  const joinedBlocks = blocks.join('\n\n');
  return `${trimmedBody === '' ? '' : `${trimmedBody}\n\n`}${joinedBlocks}\n`;
}
