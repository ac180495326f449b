import { anlsScore, ANLS_THRESHOLD } from '@skillopt/env-kit';
import { DOCVQA_HARD_THRESHOLD, diagnoseDocVqaMismatch, extractDocVqaAnswer, scoreDocVqaReply } from '../src/index';

describe('the DocVQA evaluator: the spec vectors', () => {
  it('scores "Jonh Smith" against ["John Smith", "J. Smith"] as 0.8', () => {
    expect(anlsScore('Jonh Smith', ['John Smith', 'J. Smith'])).toBeCloseTo(0.8, 10);
    const score = scoreDocVqaReply('<answer>Jonh Smith</answer>', ['John Smith', 'J. Smith']);
    expect(score).toMatchObject({ prediction: 'Jonh Smith', source: 'tag', hard: 0, closestReference: 'John Smith' });
    expect(score.soft).toBeCloseTo(0.8, 10);
    expect(score.anls).toBeCloseTo(0.8, 10);
  });

  it('scores "abc" against "xyz" as 0', () => {
    expect(scoreDocVqaReply('<answer>abc</answer>', ['xyz'])).toMatchObject({ anls: 0, hard: 0, soft: 0 });
  });

  it('scores kitten against sitting as 1 − 3/7 (0.5714…)', () => {
    const score = scoreDocVqaReply('<answer>kitten</answer>', ['sitting']);
    expect(score.soft).toBeCloseTo(1 - 3 / 7, 10);
    expect(score.soft).toBeCloseTo(0.5714, 4);
    expect(score.hard).toBe(0);
  });

  // Edit distances between answers of a thousand characters, which a loaded machine slows many
  // times over: the limit is there to catch a hang, not to time them.
  it('passes (hard = 1) exactly when ANLS ≥ 0.999', () => {
    expect(DOCVQA_HARD_THRESHOLD).toBe(0.999);
    expect(scoreDocVqaReply('<answer>John Smith</answer>', ['John Smith'])).toMatchObject({ hard: 1, soft: 1 });
    // One edit in 1000 characters: ANLS 0.999, still a pass; one in 999: just under, a fail.
    const long = 'a'.repeat(1000);
    expect(scoreDocVqaReply(`<answer>${long.slice(0, 999)}b</answer>`, [long])).toMatchObject({ hard: 1 });
    const shorter = 'a'.repeat(999);
    const justUnder = scoreDocVqaReply(`<answer>${shorter.slice(0, 998)}b</answer>`, [shorter]);
    expect(justUnder.soft).toBeLessThan(0.999);
    expect(justUnder.hard).toBe(0);
  }, 300_000);

  it('ignores case and whitespace runs but not punctuation', () => {
    expect(scoreDocVqaReply('<answer>  JOHN   smith </answer>', ['John Smith'])).toMatchObject({ hard: 1, soft: 1 });
    const dotted = scoreDocVqaReply('<answer>J Smith</answer>', ['J. Smith']);
    expect(dotted.hard).toBe(0);
    expect(dotted.soft).toBeCloseTo(1 - 1 / 8, 10);
  });

  it('scores 0 at the threshold distance and 1 − d just under it', () => {
    expect(ANLS_THRESHOLD).toBe(0.5);
    expect(scoreDocVqaReply('<answer>abcd</answer>', ['abxy']).soft).toBe(0); // d = 2/4 = 0.5
    expect(scoreDocVqaReply('<answer>abcde</answer>', ['abcxy']).soft).toBeCloseTo(0.6, 10); // d = 2/5
  });

  it('takes the best of several references', () => {
    expect(scoreDocVqaReply('<answer>M. Hollis</answer>', ['Margaret Hollis', 'M. Hollis'])).toMatchObject({ hard: 1, closestReference: 'M. Hollis' });
  });

  it('never lets an empty prediction match, even against a blank reference', () => {
    expect(scoreDocVqaReply('<answer> </answer>', [''])).toMatchObject({ prediction: '', anls: 0, hard: 0, failureReason: 'the <answer> tag is empty' });
    expect(scoreDocVqaReply('', ['x'])).toMatchObject({ source: 'none', soft: 0, failureReason: 'the reply holds no answer at all' });
  });
});

describe('answer extraction (last <answer>, last </answer>)', () => {
  it('takes the text between the last opening and the last closing tag, in any case', () => {
    expect(extractDocVqaAnswer('<answer>1/8/93</answer>')).toEqual({ answer: '1/8/93', source: 'tag' });
    expect(extractDocVqaAnswer('<ANSWER>\n  Duluth \n</Answer>')).toEqual({ answer: 'Duluth', source: 'tag' });
    expect(extractDocVqaAnswer('<answer>first</answer> then <answer>second</answer>')).toEqual({ answer: 'second', source: 'tag' });
  });

  it('falls back to the last line when the last <answer> is not closed after it', () => {
    expect(extractDocVqaAnswer('<answer>A</answer>\nOn reflection:\n<answer>B')).toEqual({ answer: '<answer>B', source: 'last-line' });
    expect(extractDocVqaAnswer('Thinking\n\nDuluth\n  \n')).toEqual({ answer: 'Duluth', source: 'last-line' });
    expect(extractDocVqaAnswer('   \n')).toEqual({ answer: '', source: 'none' });
  });

  it('differs from the last-complete-pair rule on a stray closing tag', () => {
    // The last </answer> is what counts, so an earlier stray one is part of the answer.
    expect(extractDocVqaAnswer('<answer>a</answer> b </answer>').answer).toBe('a</answer> b');
  });

  it('finds tags correctly after characters whose lower case is longer (İ)', () => {
    expect(extractDocVqaAnswer('İİİ <answer>İstanbul</answer>')).toEqual({ answer: 'İstanbul', source: 'tag' });
  });
});

describe('failure reasons', () => {
  const reasonFor = (reply: string, references: string[]) => scoreDocVqaReply(reply, references).failureReason ?? '';

  it('has none for a pass', () => {
    expect(scoreDocVqaReply('<answer>7</answer>', ['7']).failureReason).toBeUndefined();
  });

  it('says when there is no tag or an unclosed one', () => {
    expect(reasonFor('It is 7', ['7'])).toMatch(/^no <answer> tag, so the last line/);
    expect(reasonFor('<answer>7', ['7'])).toMatch(/^the last <answer> tag is not followed by a closing <\/answer>/);
  });

  it('says when only punctuation or spacing differs', () => {
    expect(reasonFor('<answer>J Smith</answer>', ['J. Smith'])).toMatch(/only in punctuation or spacing/);
  });

  it('says when the answer holds extra text or only part of the reference', () => {
    expect(reasonFor('<answer>The total is 1,250.00</answer>', ['1,250.00'])).toMatch(/reference plus extra text/);
    expect(reasonFor('<answer>Hollis</answer>', ['Margaret Hollis'])).toMatch(/only part of the reference/);
  });

  it('says how close a near miss is, and when the answer is simply different', () => {
    expect(reasonFor('<answer>Jonh Smith</answer>', ['John Smith'])).toBe('close to the reference but not exact (2 character edits away)');
    expect(reasonFor('<answer>abc</answer>', ['xyz'])).toMatch(/^a different answer from the reference/);
  });

  it('diagnoses an empty reply', () => {
    expect(diagnoseDocVqaMismatch('', '', 'none', ['x'])).toBe('the reply holds no answer at all');
  });
});
