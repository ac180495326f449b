import {
  diagnoseOfficeQaMismatch,
  extractOfficeQaAnswer,
  normaliseOfficeQaAnswer,
  officeQaExactMatch,
  officeQaTokenF1,
  scoreOfficeQaReply,
} from '../src/index';

describe('the OfficeQA evaluator: the spec vectors', () => {
  it('matches "$1,234.5 million" to "1234.5" exactly (EM 1)', () => {
    expect(normaliseOfficeQaAnswer('$1,234.5 million')).toBe('1234.5');
    expect(officeQaExactMatch('$1,234.5 million', '1234.5')).toBe(1);
    expect(scoreOfficeQaReply('<answer>$1,234.5 million</answer>', '1234.5')).toMatchObject({ em: 1, f1: 1, hard: 1, soft: 1 });
  });

  it('gives "12.3 %" against "12.3%" F1 0 (no numeric tolerance, % kept as a character)', () => {
    expect(normaliseOfficeQaAnswer('12.3 %')).toBe('12.3 %');
    expect(officeQaTokenF1('12.3 %', '12.3%')).toBe(0);
    const score = scoreOfficeQaReply('<answer>12.3 %</answer>', '12.3%');
    expect(score).toMatchObject({ em: 0, f1: 0, hard: 0, soft: 0 });
    expect(score.failureReason).toMatch(/only in spacing/);
  });
});

describe('normalisation', () => {
  it('lower-cases, trims, drops commas and punctuation except . - %, collapses whitespace', () => {
    expect(normaliseOfficeQaAnswer('  The TOTAL: (2,602)!  ')).toBe('the total 2602');
    expect(normaliseOfficeQaAnswer('-3,182')).toBe('-3182');
    expect(normaliseOfficeQaAnswer('1608.80%')).toBe('1608.80%');
    expect(normaliseOfficeQaAnswer('[0.096, -184.143]')).toBe('0.096 -184.143');
  });

  it('removes the whole words million(s), billion(s), dollar(s) and nominal, and nothing else', () => {
    expect(normaliseOfficeQaAnswer('2,602 Millions of Dollars')).toBe('2602 of');
    expect(normaliseOfficeQaAnswer('4 billion nominal dollars')).toBe('4');
    expect(normaliseOfficeQaAnswer('5 thousand')).toBe('5 thousand');
    expect(normaliseOfficeQaAnswer('12 percent')).toBe('12 percent');
    expect(normaliseOfficeQaAnswer('millionaire dollarama')).toBe('millionaire dollarama');
  });

  it('keeps letters with accents and a Unicode minus sign', () => {
    expect(normaliseOfficeQaAnswer('Café')).toBe('café');
    expect(normaliseOfficeQaAnswer('\u22125')).toBe('\u22125');
    expect(officeQaExactMatch('\u22125', '-5')).toBe(0);
  });

  it('does not scale units or tolerate rounding', () => {
    expect(officeQaExactMatch('2.602 billion', '2,602 million')).toBe(0);
    expect(officeQaExactMatch('2602.0', '2602')).toBe(0);
    expect(officeQaExactMatch('$2,602 million', '2,602')).toBe(1);
  });
});

describe('token F1', () => {
  it('is the multiset overlap of the normalised tokens', () => {
    expect(officeQaTokenF1('March 3 1977', 'March 3, 1977')).toBe(1);
    expect(officeQaTokenF1('March 1977', 'March 3, 1977')).toBeCloseTo(0.8, 10);
    expect(officeQaTokenF1('2602 2602', '2602')).toBeCloseTo(2 / 3, 10);
  });

  it('is 1 when both normalise to nothing, 0 when one does, and 0 for a blank prediction', () => {
    expect(officeQaTokenF1('$', 'dollars')).toBe(1);
    expect(officeQaTokenF1('$', '5')).toBe(0);
    expect(officeQaTokenF1('', 'dollars')).toBe(0);
    expect(officeQaExactMatch('   ', '')).toBe(0);
  });
});

describe('answer extraction', () => {
  it('takes the FIRST <answer> tag (any case, may span lines)', () => {
    expect(extractOfficeQaAnswer('<answer>1</answer> then <answer>2</answer>')).toEqual({ answer: '1', source: 'tag' });
    expect(extractOfficeQaAnswer('x\n<ANSWER>\n 32,118 \n</Answer>')).toEqual({ answer: '32,118', source: 'tag' });
  });

  it('falls back to the last non-empty line, and to nothing for a blank reply', () => {
    expect(extractOfficeQaAnswer('Working.\nThe total is 17,600\n\n')).toEqual({ answer: 'The total is 17,600', source: 'last-line' });
    expect(extractOfficeQaAnswer('  \n ')).toEqual({ answer: '', source: 'none' });
  });
});

describe('failure reasons', () => {
  const reasonFor = (reply: string, reference: string) => scoreOfficeQaReply(reply, reference).failureReason ?? '';

  it('has none for a correct answer', () => {
    expect(scoreOfficeQaReply('<answer>32,118</answer>', '32,118').failureReason).toBeUndefined();
  });

  it('names a missing, malformed or empty tag', () => {
    expect(reasonFor('It is 52', '52')).toMatch(/^no <answer> tag/);
    expect(reasonFor('<answer>52', '52')).toMatch(/malformed or not closed/);
    expect(reasonFor('<answer> </answer>', '52')).toBe('the <answer> tag is empty');
    expect(diagnoseOfficeQaMismatch('', '', 'none', '52')).toBe('the reply holds no answer at all');
  });

  it('names extra words, a unit slip, a sign slip, a near miss and a different answer', () => {
    expect(reasonFor('<answer>about 32,118 thousand</answer>', '32,118')).toMatch(/plus 2 extra words/);
    expect(reasonFor('<answer>32,118,000</answer>', '32,118')).toMatch(/factor of a thousand/);
    expect(reasonFor('<answer>3,182</answer>', '-3,182')).toMatch(/wrong sign/);
    expect(reasonFor('<answer>17,650</answer>', '17,600')).toMatch(/close to the reference/);
    expect(reasonFor('<answer>2602.0</answer>', '2602')).toMatch(/number is right, but it is written differently/);
    expect(reasonFor('<answer>Elena Marsh</answer>', 'Tomas Okafor')).toBe('a different answer from the reference');
    expect(reasonFor('<answer>The chair is Tomas Okafor.</answer>', 'Tomas Okafor')).toMatch(/plus 3 extra words/);
  });

  it('names a number written in words, a date in another format and square-bracket tags', () => {
    expect(reasonFor('<answer>minus three thousand one hundred and eighty-two</answer>', '-3,182')).toBe('expected digits, but the number is written in words');
    expect(reasonFor('<answer>03/03/1977</answer>', 'March 3, 1977')).toMatch(/date in a different format/);
    expect(reasonFor('<answer>1977-03-03</answer>', 'March 3, 1977')).toMatch(/date in a different format/);
    expect(reasonFor('[answer]3.8%[/answer]', '3.8%')).toMatch(/^the <answer> tag is malformed/);
  });
});
