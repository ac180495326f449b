import { parseGoldAnswers, parsePythonLiteral, PythonLiteralSyntaxError } from '../src/index';

describe('gold answers in every accepted form', () => {
  it('reads a list of strings, trimmed, without blanks or exact duplicates', () => {
    expect(parseGoldAnswers(['1/8/93', ' 1/8/93 ', '', 'Jan 8, 1993'])).toEqual(['1/8/93', 'Jan 8, 1993']);
  });

  it('reads a Python list literal as the question CSVs hold it', () => {
    expect(parseGoldAnswers("['1/8/93', '1/8/93']")).toEqual(['1/8/93']);
    expect(parseGoldAnswers(`["O'Neil", 'say "hi"', 'a\\'b', u'caf\\xe9']`)).toEqual(["O'Neil", 'say "hi"', "a'b", 'café']);
    expect(parseGoldAnswers("('a', 'b',)")).toEqual(["('a', 'b',)"]); // only [ and { start a literal
  });

  it('reads a JSON list string', () => {
    expect(parseGoldAnswers('["John Smith", "J. Smith"]')).toEqual(['John Smith', 'J. Smith']);
  });

  it('reads objects with answers / ground_truth / answer, and lists of objects with text / answer / value', () => {
    expect(parseGoldAnswers({ answers: ['x', 'y'] })).toEqual(['x', 'y']);
    expect(parseGoldAnswers({ ground_truth: "['z']" })).toEqual(['z']);
    expect(parseGoldAnswers({ answer: 'w' })).toEqual(['w']);
    expect(parseGoldAnswers([{ text: 'a' }, { answer: 'b' }, { value: 3 }])).toEqual(['a', 'b', '3']);
    expect(parseGoldAnswers('{"answers": ["from json"]}')).toEqual(['from json']);
    expect(parseGoldAnswers("[{'text': 'from python'}]")).toEqual(['from python']);
  });

  it('keeps a plain string (even one with brackets that is no literal) as one answer', () => {
    expect(parseGoldAnswers('Brightwater Laboratories')).toEqual(['Brightwater Laboratories']);
    expect(parseGoldAnswers('[sic] report')).toEqual(['[sic] report']);
    expect(parseGoldAnswers('(555) 123-4567')).toEqual(['(555) 123-4567']);
  });

  it('turns numbers into strings and finds nothing in null, empty lists or unknown objects', () => {
    expect(parseGoldAnswers([1993, 12.5])).toEqual(['1993', '12.5']);
    expect(parseGoldAnswers(null)).toEqual([]);
    expect(parseGoldAnswers('[]')).toEqual([]);
    expect(parseGoldAnswers(['  '])).toEqual([]);
    expect(parseGoldAnswers({ other: 'x' })).toEqual([]);
  });
});

describe('parsePythonLiteral', () => {
  it('reads strings, numbers, constants and nested containers', () => {
    expect(parsePythonLiteral(`[1, -2.5, True, False, None, 'a', "b", ('c',), {'k': [r'\\d']}]`)).toEqual([
      1,
      -2.5,
      true,
      false,
      null,
      'a',
      'b',
      ['c'],
      { k: ['\\d'] },
    ]);
  });

  it('handles escapes, triple quotes and adjacent strings', () => {
    expect(parsePythonLiteral(`'tab\\there\\nnew \\u00e9 \\101 \\q'`)).toBe('tab\there\nnew é A \\q');
    expect(parsePythonLiteral(`'''it's'''`)).toBe("it's");
    expect(parsePythonLiteral(`'ab' "cd"`)).toBe('abcd');
  });

  it('rejects what it cannot read', () => {
    expect(() => parsePythonLiteral("['unterminated]")).toThrow(PythonLiteralSyntaxError);
    expect(() => parsePythonLiteral('[a]')).toThrow(/unexpected character/);
    expect(() => parsePythonLiteral("['a'] extra")).toThrow(/after the literal/);
  });
});
