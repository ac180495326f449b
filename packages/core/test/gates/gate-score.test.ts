import { ERROR_CODES } from '@skillopt/contract';
import { APPENDIX_END_MARKER, APPENDIX_START_MARKER, SLOW_UPDATE_END_MARKER, SLOW_UPDATE_START_MARKER } from '@skillopt/optimizer';
import { DEFAULT_LEADING_WORDS, gateScore, parseLeadingWords, projectGateMetric, semanticDensity, type GateMetric } from '../../src/gates/index.js';

describe('projectGateMetric (§3.1 vectors)', () => {
  it('projects hard, soft and mixed with a clamped weight', () => {
    expect(projectGateMetric({ hard: 0.8, soft: 0.3 }, 'hard')).toBe(0.8);
    expect(projectGateMetric({ hard: 0.8, soft: 0.3 }, 'soft')).toBe(0.3);
    expect(projectGateMetric({ hard: 1, soft: 0 }, 'mixed')).toBe(0.5);
    expect(projectGateMetric({ hard: 0.8, soft: 0.4 }, 'mixed', 0.25)).toBeCloseTo(0.7, 12);
    expect(projectGateMetric({ hard: 0.8, soft: 0.3 }, 'mixed', 0)).toBe(0.8);
    expect(projectGateMetric({ hard: 0.8, soft: 0.3 }, 'mixed', 1)).toBe(0.3);
    expect(projectGateMetric({ hard: 0.8, soft: 0.3 }, 'mixed', 5)).toBe(0.3);
    expect(projectGateMetric({ hard: 0.8, soft: 0.3 }, 'mixed', -2)).toBe(0.8);
  });

  it('rejects an unknown metric as a config error', () => {
    expect(() => projectGateMetric({ hard: 1, soft: 1 }, 'rouge' as GateMetric)).toThrow(expect.objectContaining({ code: ERROR_CODES.configInvalid }));
  });
});

describe('semanticDensity (§3.2, with multi-word leading words)', () => {
  it('matches the original vectors', () => {
    expect(semanticDensity('Always check the inputs and never mix up proxy values.')).toBeCloseTo(0.2, 12);
    expect(semanticDensity('Check the inputs carefully and resolve the equation.', ['check', 'resolve'])).toBeCloseTo(0.25, 12);
    expect(semanticDensity('Always do this task step by step and be very careful because errors are bad.')).toBeCloseTo(1 / 15, 12);
    expect(semanticDensity('Always verify outputs. Never mix proxy values.')).toBeCloseTo(3 / 7, 12);
  });

  it('is 0 for a blank skill or one without words', () => {
    expect(semanticDensity('   \n')).toBe(0);
    expect(semanticDensity('--- ### ***')).toBe(0);
  });

  it('measures only the text outside the protected slow-update and appendix blocks', () => {
    const skill = [
      'Always cite. Be brief. Think.',
      SLOW_UPDATE_START_MARKER,
      'never never never never',
      SLOW_UPDATE_END_MARKER,
      APPENDIX_START_MARKER,
      'must must must',
      APPENDIX_END_MARKER,
    ].join('\n');
    // Outside the blocks the words are always, cite, be, brief, think: 1 hit in 5.
    expect(semanticDensity(skill)).toBeCloseTo(1 / 5, 12);
  });

  it('counts every word of a multi-word leading phrase, compared case-insensitively', () => {
    expect(semanticDensity('Double check units; then DOUBLE CHECK again.', ['double check'])).toBeCloseTo(4 / 7, 12);
  });

  it('reads leading words from a list or a comma-separated string', () => {
    expect(parseLeadingWords(' must, never ,, verify ')).toEqual(['must', 'never', 'verify']);
    expect(parseLeadingWords(['ALWAYS', ' '])).toEqual(['ALWAYS']);
    expect(DEFAULT_LEADING_WORDS).toContain('VERIFY');
  });
});

describe('gateScore', () => {
  const text = 'Always check the inputs and never mix up proxy values.';

  it('adds weight × density to the metric when the bonus is on', () => {
    const score = gateScore({ hard: 0.8, soft: 0.6 }, text, { metric: 'hard', semanticDensity: { weight: 0.1 } });
    expect(score.metricScore).toBe(0.8);
    expect(score.densityBonus).toBeCloseTo(0.02, 12);
    expect(score.score).toBeCloseTo(0.82, 12);
  });

  it('adds nothing when the bonus is off', () => {
    expect(gateScore({ hard: 0.8, soft: 0.6 }, text, { metric: 'soft' })).toEqual({ metricScore: 0.6, densityBonus: 0, score: 0.6 });
  });
});
