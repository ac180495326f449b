import { ERROR_CODES, SkillOptError } from '@skillopt/contract/errors';
import { nearestWord } from '@skillopt/core';
import { SOURCE_IDS, type SourceId } from '../harvest/session-record.js';

// The original's `--source` values, which name some tools differently.
const ORIGINAL_SOURCE_NAMES: Readonly<Record<string, SourceId>> = {
  claude: 'claude-code',
  copilot: 'copilot-vscode',
  copilot_cli: 'copilot-cli',
};

/**
 * The source ids a user named (`--source claude-code,codex`, or the original's `claude`,
 * `copilot_cli`), each at most once, in the order named. A name that is none of them is an error
 * that suggests the nearest.
 */
export function parseSourceNames(names: readonly string[]): SourceId[] {
  const ids: SourceId[] = [];
  for (const raw of names.flatMap((name) => name.split(','))) {
    const name = raw.trim().toLowerCase();
    if (name === '') continue;
    const id = (SOURCE_IDS as readonly string[]).includes(name) ? (name as SourceId) : ORIGINAL_SOURCE_NAMES[name];
    if (id === undefined) {
      const nearest = nearestWord(name, [...SOURCE_IDS, ...Object.keys(ORIGINAL_SOURCE_NAMES)]);
      const suggestion = nearest !== undefined && nearest.distance <= 3 ? ` Did you mean "${ORIGINAL_SOURCE_NAMES[nearest.word] ?? nearest.word}"?` : '';
      throw new SkillOptError({
        code: ERROR_CODES.configInvalid,
        category: 'user',
        message: `"${raw.trim()}" is not a session source.${suggestion} The sources are: ${SOURCE_IDS.join(', ')}.`,
      });
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
