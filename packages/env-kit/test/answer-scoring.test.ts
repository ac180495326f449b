import {
  anlsScore,
  answerTokens,
  exactMatch,
  isBlankAnswer,
  levenshteinDistance,
  normaliseAnswer,
  normalisedLevenshteinSimilarity,
  tokenF1,
} from '../src/index';

describe('normaliseAnswer (SQuAD)', () => {
  it.each([
    ['The  Quick, brown fox!', 'quick brown fox'],
    ['An apple a day', 'apple day'],
    ['theory of the atom', 'theory of atom'],
    ["Rock 'n' Roll", 'rock n roll'],
    ['  Café  a  ', 'café'],
    ['a', ''],
    ['U.S.A.', 'usa'],
  ])('%j becomes %j', (text, expected) => {
    expect(normaliseAnswer(text)).toBe(expected);
  });

  it('keeps non-ASCII punctuation, as Python string.punctuation does', () => {
    expect(normaliseAnswer('«Paris»')).toBe('«paris»');
  });

  it('splits the normalised answer into tokens', () => {
    expect(answerTokens('The New York Times!')).toEqual(['new', 'york', 'times']);
    expect(answerTokens('the')).toEqual([]);
  });

  it('treats only whitespace as a blank answer', () => {
    expect(isBlankAnswer(' \n\t')).toBe(true);
    expect(isBlankAnswer('a')).toBe(false);
  });
});

describe('exactMatch', () => {
  it('matches after normalisation against any reference', () => {
    expect(exactMatch('The Eiffel Tower', ['Eiffel Tower'])).toBe(1);
    expect(exactMatch('the appian way!', ['Via Appia', 'Appian Way'])).toBe(1);
    expect(exactMatch('Eiffel', ['Eiffel Tower'])).toBe(0);
  });

  it('keeps the original vector: "a" matches "an" (both normalise to "")', () => {
    expect(exactMatch('a', ['an'])).toBe(1);
  });

  it('never lets a blank prediction match a non-blank reference (deliberate difference)', () => {
    expect(exactMatch('', ['The'])).toBe(0);
    expect(exactMatch('   ', ['x'])).toBe(0);
    expect(exactMatch('', [''])).toBe(1);
    expect(exactMatch('the', [''])).toBe(0);
  });

  it('gives 0 without references', () => {
    expect(exactMatch('Paris', [])).toBe(0);
  });
});

describe('tokenF1', () => {
  it('scores "new york city" against "New York" as 0.8', () => {
    expect(tokenF1('new york city', ['New York'])).toBeCloseTo(0.8, 12);
  });

  it('takes the best reference', () => {
    expect(tokenF1('Shakespeare', ['William Shakespeare', 'Shakespeare'])).toBe(1);
    expect(tokenF1('Nile river', ['The Nile', 'Amazon'])).toBeCloseTo(2 / 3, 12);
    expect(tokenF1('Paris', ['London'])).toBe(0);
  });

  it('counts overlapping tokens as a multiset', () => {
    expect(tokenF1('go go go', ['go'])).toBeCloseTo((2 * (1 / 3) * 1) / (1 / 3 + 1), 12);
    expect(tokenF1('go stop', ['go go stop'])).toBeCloseTo(0.8, 12);
  });

  it('handles answers without tokens like the SQuAD script, except blank predictions', () => {
    expect(tokenF1('the', ['an'])).toBe(1);
    expect(tokenF1('the', ['Paris'])).toBe(0);
    expect(tokenF1('Paris', ['the', 'Paris'])).toBe(1);
    expect(tokenF1('', ['the'])).toBe(0);
    expect(tokenF1('', [''])).toBe(1);
    expect(tokenF1('Paris', [])).toBe(0);
  });
});

describe('levenshteinDistance', () => {
  it.each([
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['flaw', 'lawn', 2],
    ['same', 'same', 0],
  ])('%j to %j is %d', (left, right, distance) => {
    expect(levenshteinDistance(left, right)).toBe(distance);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(levenshteinDistance('😀a', 'a')).toBe(1);
    expect(levenshteinDistance('😀', '😁')).toBe(1);
  });
});

describe('anlsScore (DocVQA, threshold 0.5)', () => {
  it('scores "Jonh Smith" against ["John Smith", "J. Smith"] as 0.8', () => {
    expect(anlsScore('Jonh Smith', ['John Smith', 'J. Smith'])).toBeCloseTo(0.8, 12);
  });

  it('scores kitten against sitting as 1 - 3/7', () => {
    expect(anlsScore('kitten', ['sitting'])).toBeCloseTo(0.5714285714285714, 12);
  });

  it('scores completely different answers 0', () => {
    expect(anlsScore('abc', ['xyz'])).toBe(0);
  });

  it('gives 0 at the threshold and 1 - d just under it', () => {
    expect(normalisedLevenshteinSimilarity('ab', 'ax')).toBe(0); // d = 0.5
    expect(normalisedLevenshteinSimilarity('abc', 'abx')).toBeCloseTo(2 / 3, 12);
    expect(normalisedLevenshteinSimilarity('ab', 'ax', { threshold: 0.6 })).toBe(0.5);
  });

  it('ignores case and whitespace but not punctuation', () => {
    expect(anlsScore('  JOHN   smith ', ['John Smith'])).toBe(1);
    expect(anlsScore('1/8/93', ['1-8-93'])).toBeCloseTo(1 - 2 / 6, 12);
  });

  it('scores blanks: both blank 1, one blank 0, no references 0', () => {
    expect(anlsScore('', [''])).toBe(1);
    expect(anlsScore(' ', ['x'])).toBe(0);
    expect(anlsScore('x', [''])).toBe(0);
    expect(anlsScore('x', [])).toBe(0);
  });
});
