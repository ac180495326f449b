import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { nearestWord } from '@skillopt/core';
import { PERSONA_NAMES } from './command-line/sleep-actions.js';

/**
 * The two developers of the original's offline proof, shipped as task files (facts of the
 * original's personas, MIT): a researcher who wants arXiv ids in one form and answers in tags, and
 * a programmer who wants imperative commit subjects. Each night on them can be learned from.
 */
export const PERSONAS = PERSONA_NAMES;
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

/** What a dry run reads, from the flags both front ends share: `--persona`, or `--tasks` with `--skill`. */
export function nightInputFiles(flags: { tasks?: string | undefined; skill?: string | undefined; persona?: string | undefined }): PersonaFixture {
  const problem = (message: string) => new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message });
  if (flags.persona !== undefined) {
    if (flags.tasks !== undefined || flags.skill !== undefined)
      throw problem('--persona brings its own tasks and skill document: give it without --tasks and --skill');
    return personaFixture(flags.persona);
  }
  if (flags.tasks === undefined) throw problem('dry-run needs --tasks <task file> (or --persona)');
  if (flags.skill === undefined) throw problem('dry-run needs --skill <skill document> (or --persona)');
  return { tasksFile: flags.tasks, skillFile: flags.skill };
}
