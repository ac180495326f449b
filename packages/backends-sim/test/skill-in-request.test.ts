import { skillInAgentRequest } from '../src/skill-in-request';

const SKILL = 'Answer with the number alone, inside <answer></answer> tags.';

function codexDeveloperText(home: string, workspace: string): string {
  // Codex's own prose about AGENTS.md files, then its skills listing, whose roots are the run's
  // temporary directories.
  return [
    'You are a coding agent running in the Codex CLI.',
    '- The contents of the AGENTS.md file at the root of the repo are included with the developer message.',
    '<skills_instructions>',
    '### Skill roots',
    `- \`r0\` = \`${home}/skills/.system\``,
    `- \`r1\` = \`${workspace}/.agents/skills\``,
    '</skills_instructions>',
  ].join('\n');
}

describe('skillInAgentRequest', () => {
  it('takes a harness prose line about AGENTS.md for no heading, so the skill is the file read and the same on every run', () => {
    const skills = ['/tmp/run-a', '/tmp/run-b'].map((root) =>
      skillInAgentRequest(
        codexDeveloperText(`${root}/home`, `${root}/workspace`),
        [],
        new Map([[`${root}/workspace/.agents/skills/skillopt-target/SKILL.md`, `---\nname: skillopt-target\n---\n\n${SKILL}`]]),
      ),
    );
    expect(skills).toEqual([SKILL, SKILL]);
  });

  it('reads the contents under the headings the harnesses write', () => {
    const claude = `<system-reminder>\nContents of /w/CLAUDE.md (project instructions, checked into the codebase):\n\n${SKILL}\n</system-reminder>`;
    const codex = `# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>\n${SKILL}\n</INSTRUCTIONS>`;
    expect(skillInAgentRequest('', [claude], new Map())).toBe(SKILL);
    expect(skillInAgentRequest('', [codex], new Map())).toBe(SKILL);
  });
});
