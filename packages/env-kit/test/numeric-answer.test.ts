import { extractLastNumericAnswer, numbersClose, numericAnswersMatch, numericMatch, parseNumericAnswer } from '../src/index';

describe('parseNumericAnswer', () => {
  it.each([
    ['42', 42, false],
    ['1,234.5', 1234.5, false],
    ['12%', 12, true],
    ['12.3 %', 12.3, true],
    ['$3', 3, false],
    ['-$3', -3, false],
    ['$-3', -3, false],
    ['-0.5', -0.5, false],
    ['\u22120.5', -0.5, false],
    ['+7', 7, false],
    ['.25', 0.25, false],
    ['1e-3', 0.001, false],
    ['€1,000,000', 1_000_000, false],
    ['  42.  ', 42, false],
  ])('reads %j as %d (percentage: %s)', (text, value, isPercentage) => {
    expect(parseNumericAnswer(text)).toEqual({ value, isPercentage });
  });

  it.each(['', 'forty-two', '1,2', '12,34', '--3', '3 apples', '1.2.3', '$'])('rejects %j', (text) => {
    expect(parseNumericAnswer(text)).toBeNull();
  });
});

describe('extractLastNumericAnswer', () => {
  it('takes the last number in free text', () => {
    expect(extractLastNumericAnswer('First 3 apples, then 4, so the total is $1,234.50.')).toEqual({
      value: 1234.5,
      isPercentage: false,
    });
    expect(extractLastNumericAnswer('growth of 12.5% last year')).toEqual({ value: 12.5, isPercentage: true });
    expect(extractLastNumericAnswer('the result is -7')).toEqual({ value: -7, isPercentage: false });
    expect(extractLastNumericAnswer('no numbers here')).toBeNull();
  });

  it('does not read numbers glued to words, or a hyphen between numbers as a sign', () => {
    expect(extractLastNumericAnswer('version v2')).toBeNull();
    expect(extractLastNumericAnswer('pages 3-4')).toEqual({ value: 4, isPercentage: false });
  });
});

describe('numeric comparison', () => {
  it('uses relative and absolute tolerance', () => {
    expect(numbersClose(100, 100.00001)).toBe(true);
    expect(numbersClose(100, 100.01)).toBe(false);
    expect(numbersClose(100, 100.01, { relativeTolerance: 1e-3 })).toBe(true);
    expect(numbersClose(0, 1e-9)).toBe(false);
    expect(numbersClose(0, 1e-9, { absoluteTolerance: 1e-6 })).toBe(true);
    expect(numbersClose(0.1 + 0.2, 0.3)).toBe(true);
  });

  it('lets a percentage match its fraction when only one side has the sign', () => {
    expect(numericAnswersMatch({ value: 12, isPercentage: true }, { value: 0.12, isPercentage: false })).toBe(true);
    expect(numericAnswersMatch({ value: 12, isPercentage: true }, { value: 12, isPercentage: false })).toBe(true);
    expect(numericAnswersMatch({ value: 12, isPercentage: true }, { value: 0.12, isPercentage: true })).toBe(false);
  });

  it('numericMatch reads both sides and tries every reference', () => {
    expect(numericMatch('1,234.5', ['1234.5'])).toBe(1);
    expect(numericMatch('The answer is 72.', ['#### 72'])).toBe(1);
    expect(numericMatch('$3', ['2', '3.0'])).toBe(1);
    expect(numericMatch('12%', ['0.12'])).toBe(1);
    expect(numericMatch('3.1', ['3.14'])).toBe(0);
    expect(numericMatch('3.1', ['3.14'], { absoluteTolerance: 0.05 })).toBe(1);
  });

  it('numericMatch gives 0 for blank or number-free predictions', () => {
    expect(numericMatch('', ['0'])).toBe(0);
    expect(numericMatch('seventy-two', ['72'])).toBe(0);
  });
});
