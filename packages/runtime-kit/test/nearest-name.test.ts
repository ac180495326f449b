import { levenshteinDistance, nearestName } from '../src/index';

describe('nearestName', () => {
  it('suggests the candidate a slip away, ignoring case', () => {
    expect(nearestName('sim-targt', ['sim-target', 'sim-optimizer'])).toBe('sim-target');
    expect(nearestName('GPT-4O-MNI', ['gpt-4o', 'gpt-4o-mini'])).toBe('gpt-4o-mini');
  });

  it('suggests nothing when no candidate is close enough to be the one meant', () => {
    expect(nearestName('gpt-4o', ['sim-target', 'sim-optimizer'])).toBeUndefined();
    expect(nearestName('sim-target', ['sim-target'])).toBeUndefined();
    expect(nearestName('x', [])).toBeUndefined();
  });

  it('counts edits in code points', () => {
    expect(levenshteinDistance('😀a', 'a')).toBe(1);
  });
});
