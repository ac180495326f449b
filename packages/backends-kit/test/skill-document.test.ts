import { renderSkillDocument } from '../src/index';

describe('renderSkillDocument', () => {
  it('puts the name and description in front matter before the skill, which it leaves as it is', () => {
    const skill = '# Counting\n- Answer with digits.\n';
    const document = renderSkillDocument({ name: 'skillopt-target', description: 'Read this first.' }, skill);
    expect(document).toBe(`---\nname: skillopt-target\ndescription: Read this first.\n---\n\n${skill}`);
    expect(document.endsWith(skill)).toBe(true);
  });
});
