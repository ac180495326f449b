import { projectAction } from '../src/index';

const admissible = ['go to drawer 1', 'take apple 1 from drawer 1', 'look'];

describe('projectAction', () => {
  it('takes the first <action> … first </action>, lower-cased, and accepts an admissible one after <think>', () => {
    expect(projectAction('<think>It is in the drawer.</think><action>Take Apple 1 from Drawer 1</action><action>look</action>', admissible)).toEqual({
      action: 'take apple 1 from drawer 1',
      valid: true,
    });
  });

  it('sends the last 30 characters of a reply without both tags, marked not valid', () => {
    expect(projectAction('I think I should go to drawer 1 now', admissible)).toEqual({
      action: 'nk i should go to drawer 1 now',
      valid: false,
      problem: 'no <action>…</action> in the reply',
    });
    expect(projectAction('<action>look', admissible)).toMatchObject({ valid: false, problem: 'no <action>…</action> in the reply' });
  });

  it('sends the action but marks it not valid without <think>, with CJK text, or when it is not admissible', () => {
    expect(projectAction('<action>look</action>', admissible)).toEqual({ action: 'look', valid: false, problem: 'no <think>…</think> before the action' });
    expect(projectAction('<think>看看</think><action>look</action>', admissible)).toEqual({ action: 'look', valid: false, problem: 'the reply has CJK text' });
    expect(projectAction('<think>x</think><action>open   the fridge</action>', admissible)).toEqual({
      action: 'open the fridge',
      valid: false,
      problem: 'the action is not one of the admissible actions',
    });
  });
});
