import { normaliseChoiceLabel, scoreLiveMathReply, type LiveMathChoice } from '../src/index';

const CHOICES: LiveMathChoice[] = [
  { label: 'A', text: 'one' },
  { label: 'B', text: 'two' },
  { label: 'C', text: 'three' },
  { label: 'D', text: 'x^2 + 1 > 0 for all real x' },
];
const score = (reply: string, correct = 'B') => scoreLiveMathReply(reply, CHOICES, correct);

describe('the LiveMath evaluator: the spec vectors', () => {
  it('recognises the correct choice by its text: "<answer>two</answer>" with B = "two"', () => {
    expect(score('<answer>two</answer>')).toMatchObject({ prediction: 'two', source: 'tag', predictedLabel: 'B', hard: 1, soft: 1 });
    expect(score('<answer>two</answer>').failureReason).toBeUndefined();
  });

  it('reads a leading label: "<answer>B. because</answer>"', () => {
    expect(score('<answer>B. because</answer>')).toMatchObject({ predictedLabel: 'B', hard: 1, soft: 1 });
  });

  it('accepts "(b)", which the original read as the invalid label "(B"', () => {
    expect(score('<answer>(b)</answer>')).toMatchObject({ predictedLabel: 'B', hard: 1 });
  });
});

describe('label forms', () => {
  it.each([
    ['B'],
    ['b'],
    ['B.'],
    ['b.'],
    ['(B)'],
    ['(b)'],
    ['B)'],
    ['[B]'],
    ['**B**'],
    ['Answer: B'],
    ['The answer is (B)'],
    ['B because 1 + 1 = 2'],
    ['  Two. '],
  ])('reads "%s" as B', (answer) => {
    expect(score(`Some reasoning.\n<answer>${answer}</answer>`)).toMatchObject({ predictedLabel: 'B', hard: 1, soft: 1 });
  });

  it('reads a choice text with different spacing and case', () => {
    expect(score('<answer>X^2 + 1 > 0 for all  real x</answer>', 'D')).toMatchObject({ predictedLabel: 'D', hard: 1 });
  });

  it('takes the last <answer> tag', () => {
    expect(score('<answer>A</answer> on reflection: <answer>B</answer>')).toMatchObject({ predictedLabel: 'B', hard: 1 });
    expect(score('<answer>B</answer> on reflection: <answer>A</answer>')).toMatchObject({ predictedLabel: 'A', hard: 0 });
  });

  it('is case-insensitive about the tag and reads one spanning lines', () => {
    expect(score('<ANSWER>\n  C\n</Answer>', 'C')).toMatchObject({ source: 'tag', predictedLabel: 'C', hard: 1 });
  });

  it('falls back to the last non-empty line when there is no tag, as the original did', () => {
    expect(score('Checking each option.\nB\n\n')).toMatchObject({ source: 'last-line', predictedLabel: 'B', hard: 1 });
  });
});

describe('wrong and unreadable answers', () => {
  it('scores a different choice 0 and names it', () => {
    const result = score('<answer>C</answer>');
    expect(result).toMatchObject({ predictedLabel: 'C', hard: 0, soft: 0 });
    expect(result.failureReason).toBe('chose C ("three"), which is not the correct choice');
  });

  it('never counts an empty reply or an empty tag', () => {
    expect(score('')).toMatchObject({ prediction: '', source: 'none', predictedLabel: null, hard: 0, failureReason: 'the reply holds no answer at all' });
    expect(score('<answer>  </answer>')).toMatchObject({ predictedLabel: null, hard: 0, failureReason: 'the <answer> tag is empty' });
  });

  it('rejects a label that is not one of the choices', () => {
    const result = score('<answer>F</answer>');
    expect(result).toMatchObject({ predictedLabel: null, hard: 0 });
    expect(result.failureReason).toBe('"F" is not one of the labels (A–D)');
  });

  it('rejects an answer that names no choice', () => {
    expect(score('<answer>four</answer>').failureReason).toMatch(/names none of the choices \(A–D\)/);
    expect(score('<answer>I am not sure</answer>').hard).toBe(0);
  });

  it('says when there is no tag or it is not closed', () => {
    expect(score('I think it is four').failureReason).toMatch(/^no <answer> tag, so the last line/);
    expect(score('<answer>B').failureReason).toMatch(/malformed or not closed/);
    expect(score('Reasoning.\nC').failureReason).toBe('chose C ("three"), which is not the correct choice (no <answer> tag; read from the last line)');
  });
});

describe('normaliseChoiceLabel', () => {
  it('strips brackets and trailing punctuation, and upper-cases', () => {
    expect(['b', 'B.', '(c)', ' d) ', 'E:', '[f]'].map(normaliseChoiceLabel)).toEqual(['B', 'B', 'C', 'D', 'E', 'F']);
    expect([' ', 'AB', '1', 7, null].map(normaliseChoiceLabel)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});
