import { extractTaggedAnswer, locateTaggedAnswer } from '../src/index';

describe('extractTaggedAnswer', () => {
  it('takes the content of the answer tags, trimmed', () => {
    expect(extractTaggedAnswer('Thinking...\n<answer> The Eiffel Tower </answer>')).toBe('The Eiffel Tower');
  });

  it('takes the last pair when there are several', () => {
    expect(extractTaggedAnswer('<answer>Lyon</answer> no wait <answer>Paris</answer> done')).toBe('Paris');
  });

  it('is case-insensitive and spans lines', () => {
    expect(extractTaggedAnswer('<ANSWER>\nline one\nline two\n</Answer>')).toBe('line one\nline two');
  });

  it('falls back to the last non-empty line, then to ""', () => {
    expect(locateTaggedAnswer('Reasoning first.\n  Paris  \n\n')).toEqual({ answer: 'Paris', source: 'last-line' });
    expect(locateTaggedAnswer('<answer>unclosed\nParis')).toEqual({ answer: 'Paris', source: 'last-line' });
    expect(locateTaggedAnswer(' \n ')).toEqual({ answer: '', source: 'none' });
  });

  it('returns an empty tagged answer as empty, not the last line', () => {
    expect(locateTaggedAnswer('I am not sure.\n<answer></answer>')).toEqual({ answer: '', source: 'tag' });
  });

  it('reads other tags, escaping their names', () => {
    expect(extractTaggedAnswer('<action>go north</action><action>open door</action>', 'action')).toBe('open door');
    expect(extractTaggedAnswer('<a.b>x</a.b><aXb>y</aXb>', 'a.b')).toBe('x');
  });
});
