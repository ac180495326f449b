import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import type { SourceId } from '../harvest/session-record.js';
import type { SessionSource } from '../harvest/session-source.js';
import { claudeCodeSource } from './claude-code/claude-code-source.js';
import { copilotCliSource } from './copilot-cli/copilot-cli-source.js';
import { copilotVscodeSource } from './copilot-vscode/copilot-vscode-source.js';
import { devinSource } from './devin/devin-source.js';
import { opencodeSource } from './opencode-source.js';

/** Every source Sleep reads, in the order a harvest of all of them reads them. */
export const SESSION_SOURCES: readonly SessionSource[] = [claudeCodeSource, copilotCliSource, copilotVscodeSource, opencodeSource, devinSource];

/** The readers of the sources `ids`, in that order. */
export function sessionSourcesFor(ids: readonly SourceId[]): SessionSource[] {
  return ids.map((id) => {
    const source = SESSION_SOURCES.find((candidate) => candidate.id === id);
    if (source === undefined)
      throw new SkillOptError({
        code: ERROR_CODES.configInvalid,
        category: 'user',
        message: `This release of @skillopt/sleep cannot read ${id} sessions yet. It reads: ${SESSION_SOURCES.map((candidate) => candidate.id).join(', ')}.`,
      });
    return source;
  });
}
