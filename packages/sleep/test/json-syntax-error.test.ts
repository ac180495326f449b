import { jsonSyntaxErrorOffset } from '../src/sources/devin/json-syntax-error.js';

describe('where a text stops being JSON', () => {
  it('finds nothing wrong in JSON, whatever it holds', () => {
    for (const text of [
      '{}',
      '[]',
      ' 1 ',
      '"a\\"b\\u00e9"',
      '{"a": [1, -2.5e3, true, false, null, {"b": {}}], "c": "d"}',
      `${'['.repeat(20000)}${']'.repeat(20000)}`,
    ]) {
      expect(jsonSyntaxErrorOffset(text)).toBeUndefined();
      expect(() => JSON.parse(text)).not.toThrow();
    }
  });

  it('points at the first character that breaks it', () => {
    expect(jsonSyntaxErrorOffset('[1, 2,,]')).toBe(6);
    expect(jsonSyntaxErrorOffset('{"a" 1}')).toBe(5);
    expect(jsonSyntaxErrorOffset('{"a": 1,}')).toBe(8);
    expect(jsonSyntaxErrorOffset('{a: 1}')).toBe(1);
    expect(jsonSyntaxErrorOffset('[1] [2]')).toBe(4);
    expect(jsonSyntaxErrorOffset('{"a": [1}')).toBe(8);
    expect(jsonSyntaxErrorOffset('plain words')).toBe(0);
    expect(jsonSyntaxErrorOffset('{"a": "cut')).toBe(6);
    expect(jsonSyntaxErrorOffset('{"a": 1')).toBe(7);
    expect(jsonSyntaxErrorOffset('')).toBe(0);
    expect(jsonSyntaxErrorOffset('[01]')).toBe(2);
  });
});
