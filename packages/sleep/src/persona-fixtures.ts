import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { nearestWord } from '@skillopt/core';

/**
 * The two developers of the original's offline proof, shipped as task files (facts of the
 * original's personas, MIT): a researcher who wants arXiv ids in one form and answers in tags, and
 * a programmer who wants imperative commit subjects. Each night on them can be learned from.
 */
export const PERSONAS = ['researcher', 'programmer'] as const;
export type Persona = (typeof PERSONAS)[number];

export interface PersonaFixture {
  tasksFile: string;
  /** A starting skill document without a learned block; a dry run only reads it. */
  skillFile: string;
}

/** The persona's shipped files; this file sits one folder below the package root, in src/ and in dist/ alike. */
export function personaFixture(name: string): PersonaFixture {
  if (!(PERSONAS as readonly string[]).includes(name)) {
    const nearest = nearestWord(name, PERSONAS);
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `there is no persona "${name}"${nearest === undefined ? '' : `; did you mean "${nearest.word}"?`} (personas: ${PERSONAS.join(', ')})`,
    });
  }
  const folder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'examples', 'personas');
  return { tasksFile: path.join(folder, `${name}.tasks.json`), skillFile: path.join(folder, 'SKILL.md') };
}
