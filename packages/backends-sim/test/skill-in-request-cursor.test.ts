import { skillInAgentRequest } from '../src/skill-in-request';

describe('the skill of a Cursor request', () => {
  it("reads a project rule's contents under its heading, as AGENTS.md's, and stops at the next file", () => {
    const system = [
      'You are a coding agent. Working directory: /w',
      'Contents of /w/.cursor/rules/skillopt-target.mdc:\n- Answer in capitals.',
      'Contents of /w/AGENTS.md:\n- Cite the source.',
    ].join('\n\n');
    expect(skillInAgentRequest(system, [], new Map())).toBe('- Answer in capitals.\n\n- Cite the source.');
  });

  it('takes no rule file of another folder, nor prose that mentions one', () => {
    const system = 'Cursor reads rules from .cursor/rules/*.mdc files.\n\nContents of /w/notes/rule.mdc:\n- not a rule';
    expect(skillInAgentRequest(system, [], new Map())).toBe(system);
  });
});
