import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { readFileIfPresent, sha256Of } from '../adoption/file-sha256.js';

/** The skill a night trains when none is named: a project skill Claude Code loads, of Sleep's own. */
export const MANAGED_SKILL_NAME = 'skillopt-sleep-learned';

export function defaultSkillDocument(project: string): string {
  return path.join(project, '.claude', 'skills', MANAGED_SKILL_NAME, 'SKILL.md');
}

/** A skill document as a night began with it: its text, and the hash that pins it until adoption. */
export interface PinnedDocument {
  path: string;
  text: string;
  /** sha256 of the file's bytes; null when there was no file (the text is then a fresh scaffold). */
  sha256: string | null;
}

function scaffold(documentPath: string): string {
  const name = path.basename(path.dirname(documentPath)) || MANAGED_SKILL_NAME;
  return [
    '---',
    `name: ${name}`,
    'description: Rules SkillOpt Sleep learned from your past sessions in this project. Follow them when you work here.',
    '---',
    '',
    `# ${name}`,
    '',
    'The rules below were learned from past sessions and checked on held-out tasks before they were adopted.',
    '',
  ].join('\n');
}

/**
 * Reads the document once and pins its bytes. A missing file starts from a scaffold (its proposal
 * will create the file, and adoption refuses if one appeared meanwhile); a file that is not UTF-8
 * is refused rather than rewritten with its bytes mangled.
 */
export async function readPinnedDocument(documentPath: string): Promise<PinnedDocument> {
  const bytes = await readFileIfPresent(documentPath);
  if (bytes === undefined) return { path: documentPath, text: scaffold(documentPath), sha256: null };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new SkillOptError({
      code: ERROR_CODES.dataInvalid,
      category: 'user',
      message: `${documentPath} is not UTF-8 text, so Sleep cannot rewrite its learned block without damaging it. Save it as UTF-8 and run the night again.`,
    });
  }
  return { path: documentPath, text, sha256: sha256Of(bytes) };
}
