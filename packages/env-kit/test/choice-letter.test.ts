import { choiceEntries, extractChoiceLetter } from '../src/index';

const choices = ['one', 'two', 'three', 'four'];

describe('extractChoiceLetter', () => {
  it.each([
    ['B', 'B'],
    ['b', 'B'],
    ['B.', 'B'],
    ['(B)', 'B'],
    ['(b)', 'B'],
    ['[C]', 'C'],
    ['D)', 'D'],
    ['**B**', 'B'],
    ['  c:  ', 'C'],
  ])('reads the bare label %j as %j', (reply, label) => {
    expect(extractChoiceLetter(reply, choices)).toBe(label);
  });

  it.each([
    ['answer: B', 'B'],
    ['Answer: b', 'B'],
    ['The answer is (C).', 'C'],
    ['After checking each option, the final answer is D', 'D'],
    ['The answer is C. Option A fails because it assumes too much.', 'C'],
    ['Option A is wrong, so I pick option B.', 'B'],
    ['The correct answer is option A because the others fail.', 'A'],
  ])('reads answer phrases: %j → %j', (reply, label) => {
    expect(extractChoiceLetter(reply, choices)).toBe(label);
  });

  it.each([
    ['B. because the function is even', 'B'],
    ['(B) because the function is even', 'B'],
    ['B because the function is even', 'B'],
    ['c) since 3 > 2', 'C'],
  ])('reads a leading label: %j → %j', (reply, label) => {
    expect(extractChoiceLetter(reply, choices)).toBe(label);
  });

  it('matches a choice by its text', () => {
    expect(extractChoiceLetter('two', choices)).toBe('B');
    expect(extractChoiceLetter('Two.', choices)).toBe('B');
    expect(extractChoiceLetter('  THREE ', choices)).toBe('C');
  });

  it('reads a label on the last line after reasoning', () => {
    expect(extractChoiceLetter('Let me compare them.\nThe second fits best.\nB', choices)).toBe('B');
    expect(extractChoiceLetter('Working it out step by step.\nfour', choices)).toBe('D');
  });

  it('does not mistake English words for labels', () => {
    expect(extractChoiceLetter('a lot of work went into this', choices)).toBeNull();
    expect(extractChoiceLetter('I think so', ['x', 'y', 'z', 'w', 'v', 'u', 't', 's', 'r'])).toBeNull();
    expect(extractChoiceLetter('the answer is a bit unclear', choices)).toBeNull();
  });

  it('ignores letters that are not labels and replies that name nothing', () => {
    expect(extractChoiceLetter('E', choices)).toBeNull();
    expect(extractChoiceLetter('(F)', choices)).toBeNull();
    expect(extractChoiceLetter('', choices)).toBeNull();
    expect(extractChoiceLetter('none of them', choices)).toBeNull();
  });

  it('accepts choices given as a record of labels', () => {
    expect(extractChoiceLetter('(b)', { a: 'yes', b: 'no' })).toBe('B');
    expect(extractChoiceLetter('no', { A: 'yes', B: 'no' })).toBe('B');
    expect(choiceEntries({ a: 'yes', b: 'no' })).toEqual([
      { label: 'A', text: 'yes' },
      { label: 'B', text: 'no' },
    ]);
    expect(() => choiceEntries({ '1': 'yes' })).toThrow(/single letters/);
  });

  it('does not guess when two choices have the same text', () => {
    expect(extractChoiceLetter('same', ['same', 'Same', 'other'])).toBeNull();
  });
});
