import { readFile } from 'node:fs/promises';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

/** A skill document from disk; a missing file is an error, never an empty skill (the original trained from "" silently). */
export async function readSkillFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `cannot read the skill file ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : String(error)}`,
    });
  }
}
