import { ERROR_CODES, SkillOptError } from '@skillopt/contract/errors';
import type { SourceId } from '../harvest/session-record.js';
import type { SessionSource } from '../harvest/session-source.js';
import { claudeCodeSource } from './claude-code/claude-code-source.js';
import { codexSource } from './codex/codex-source.js';
import { copilotCliSource } from './copilot-cli/copilot-cli-source.js';
import { copilotVscodeSource } from './copilot-vscode/copilot-vscode-source.js';
import { cursorSource } from './cursor/cursor-source.js';
import { devinSource } from './devin/devin-source.js';
import { opencodeSource } from './opencode-source.js';
import { piSource } from './pi/pi-source.js';

/** Every source Sleep reads, in the order a harvest of all of them reads them. */
export const SESSION_SOURCES: readonly SessionSource[] = [
  claudeCodeSource,
  codexSource,
  copilotCliSource,
  copilotVscodeSource,
  cursorSource,
  piSource,
  opencodeSource,
  devinSource,
];

/** The readers of the sources `ids`, in that order (names a user typed go through `parseSourceNames` first). */
export function sessionSourcesFor(ids: readonly SourceId[]): SessionSource[] {
  return ids.map((id) => {
    const source = SESSION_SOURCES.find((candidate) => candidate.id === id);
    if (source === undefined)
      throw new SkillOptError({
        code: ERROR_CODES.configInvalid,
        category: 'user',
        message: `"${String(id)}" is not a session source. The sources are: ${SESSION_SOURCES.map((candidate) => candidate.id).join(', ')}.`,
      });
    return source;
  });
}
