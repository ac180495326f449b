import { skillInAgentRequest } from '../src/skill-in-request';

// Pi (pi-coding-agent 0.73.1) puts AGENTS.md into its system prompt under "Project Context", headed
// by the file's absolute path, and ends the prompt with the date and the working directory.
const SKILL = '# Counting skill\n- Answer with digits.\n\n## Format\n- Give only the number.';

function piSystemPrompt(workspace: string, date: string, files: ReadonlyArray<{ path: string; content: string }>): string {
  const context = files.map((file) => `## ${file.path}\n\n${file.content}\n\n`).join('');
  return [
    'You are an expert coding assistant operating inside pi, a coding agent harness.',
    '',
    'Guidelines:',
    '- Be concise in your responses',
    '',
    '# Project Context',
    '',
    'Project-specific instructions and guidelines:',
    '',
    `${context}`,
    `Current date: ${date}`,
    `Current working directory: ${workspace}`,
  ].join('\n');
}

describe("the skill in Pi's system prompt", () => {
  it('is the AGENTS.md contents alone: the same skill whatever the workspace path and the date', () => {
    const first = piSystemPrompt('/tmp/run-1/workspace', '2026-12-01', [{ path: '/tmp/run-1/workspace/AGENTS.md', content: SKILL }]);
    const second = piSystemPrompt('/tmp/run-2/workspace', '2026-12-02', [{ path: '/tmp/run-2/workspace/AGENTS.md', content: SKILL }]);
    expect(skillInAgentRequest(first, [], new Map())).toBe(SKILL);
    expect(skillInAgentRequest(second, [], new Map())).toBe(SKILL);
  });

  it('keeps each of several context files apart, ending each at the next file’s heading', () => {
    const system = piSystemPrompt('/w', '2026-12-01', [
      { path: '/AGENTS.md', content: 'Outer rule.' },
      { path: '/w/AGENTS.md', content: SKILL },
    ]);
    expect(skillInAgentRequest(system, [], new Map())).toBe(`Outer rule.\n\n${SKILL}`);
  });
});
