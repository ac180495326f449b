import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { markersIn, PROTECTED_MARKERS, type ProtectedRegionKind } from './protected-regions.js';

/**
 * Reading and writing the content of one protected block. These are the only writers of the
 * blocks that edits may not touch. A block is rewritten where it stands, so the rest of the skill
 * (including the other block) stays byte for byte as it was; a missing block is created at the end.
 */

function locateBlock(skill: string, kind: ProtectedRegionKind): { contentStart: number; contentEnd: number } | undefined {
  const { start, end } = PROTECTED_MARKERS[kind];
  const startIndex = skill.indexOf(start);
  if (startIndex === -1) return undefined;
  const endIndex = skill.indexOf(end, startIndex + start.length);
  if (endIndex === -1) return undefined;
  return { contentStart: startIndex + start.length, contentEnd: endIndex };
}

/** True when the skill has a complete block of this kind (start and end marker, in that order). */
export function hasProtectedBlock(skill: string, kind: ProtectedRegionKind): boolean {
  return locateBlock(skill, kind) !== undefined;
}

/** The block's content, trimmed; '' when the block is absent or empty. */
export function readProtectedBlock(skill: string, kind: ProtectedRegionKind): string {
  const block = locateBlock(skill, kind);
  return block === undefined ? '' : skill.slice(block.contentStart, block.contentEnd).trim();
}

/** Writes `content` (trimmed) into the block, creating the block at the end of the skill if absent. */
export function writeProtectedBlock(skill: string, kind: ProtectedRegionKind, content: string): string {
  const markers = markersIn(content);
  if (markers.length > 0) {
    throw new SkillOptError({
      code: ERROR_CODES.internal,
      category: 'internal',
      message: `protected-block content must not contain the marker ${markers.join(', ')}`,
    });
  }
  const trimmed = content.trim();
  const inner = trimmed === '' ? '\n' : `\n${trimmed}\n`;
  const block = locateBlock(skill, kind);
  if (block !== undefined) return skill.slice(0, block.contentStart) + inner + skill.slice(block.contentEnd);
  const { start, end } = PROTECTED_MARKERS[kind];
  const body = skill.replace(/\s+$/, '');
  return `${body === '' ? '' : `${body}\n\n`}${start}${inner}${end}\n`;
}
