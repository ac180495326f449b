import { skillInAgentRequest } from '../src/skill-in-request';

const SKILL = '# Counting skill\n- Give only the number inside <answer></answer> tags.';

/** Copilot CLI 1.0.102's system prompt around a repository's custom instructions (.github/copilot-instructions.md). */
function copilotSystemPrompt(instructions: string): string {
  return [
    'You are the GitHub Copilot CLI, a terminal assistant built by GitHub.',
    '<tools>',
    '<view>',
    'Put independent file or range reads in multiple `view` calls in one response; they run in parallel.',
    '</view>',
    '</tools>',
    '',
    '<custom_instruction>',
    instructions,
    '</custom_instruction>',
    '<system_notifications>',
    'The runtime may send <system_notification>-wrapped status updates.',
    '</system_notifications>',
  ].join('\n');
}

describe('skillInAgentRequest with the Copilot CLI', () => {
  it("reads the skill from Copilot's <custom_instruction> block, and nothing of the prompt around it", () => {
    expect(skillInAgentRequest(copilotSystemPrompt(SKILL), [], new Map())).toBe(SKILL);
  });

  it('finds the same skill whatever else the prompt says, so each run of a task reads alike', () => {
    const other = copilotSystemPrompt(SKILL).replace('a terminal assistant built by GitHub', 'an assistant');
    expect(skillInAgentRequest(other, [], new Map())).toBe(skillInAgentRequest(copilotSystemPrompt(SKILL), [], new Map()));
  });
});
