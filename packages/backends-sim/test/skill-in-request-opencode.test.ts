import { skillInAgentRequest } from '../src/skill-in-request';

const SKILL = '# Counting skill\n- Answer with the number alone, inside <answer></answer> tags.';

/** The tail of OpenCode 1.18's system prompt: its environment block, then each instruction file it read. */
function opencodeSystemText(workspace: string, after: readonly string[] = []): string {
  return [
    'You are opencode, an interactive CLI tool that helps users with software engineering tasks.',
    'Here is some useful information about the environment you are running in:',
    '<env>',
    `  Working directory: ${workspace}`,
    '  Is directory a git repo: no',
    '</env>',
    `Instructions from: ${workspace}/AGENTS.md`,
    SKILL,
    ...after,
  ].join('\n');
}

describe('skillInAgentRequest with OpenCode', () => {
  it('reads the AGENTS.md contents OpenCode puts into its system prompt after "Instructions from:"', () => {
    expect(skillInAgentRequest(opencodeSystemText('/tmp/run-a/workspace'), [], new Map())).toBe(SKILL);
  });

  it('ends those contents at the next instruction file, so one file is one skill', () => {
    const system = opencodeSystemText('/tmp/run-b/workspace', ['Instructions from: /tmp/run-b/home/.config/opencode/AGENTS.md', 'Be terse.']);
    expect(skillInAgentRequest(system, [], new Map())).toBe(`${SKILL}\n\nBe terse.`);
  });
});
