import { detectFeedback, feedbackLexicon } from '../src/harvest/feedback-signals';

const phrases = (text: string, lexicon = feedbackLexicon()) =>
  detectFeedback(text, 2, lexicon).map((signal) => (signal.kind === 'user-feedback' ? `${signal.polarity}:${signal.phrase}` : signal.kind));

describe('feedback read from a prompt', () => {
  it('does not read "incorrect" as "correct", "prefixed" as "fixed" or "undone" as "undo" (the original did)', () => {
    expect(phrases('that answer is incorrect')).toEqual(['negative:incorrect']);
    expect(phrases('the prefixed names are undone')).toEqual([]);
  });

  it('counts a phrase inside a longer negative one once, as the negative', () => {
    expect(phrases('it is still broken')).toEqual(['negative:still broken']);
    expect(phrases('the test is not fixed')).toEqual(['negative:not fixed']);
  });

  it('reads a positive word after a negation as negative', () => {
    expect(phrases("that isn't correct")).toEqual(['negative:not correct']);
    expect(phrases('not great')).toEqual(['negative:not great']);
  });

  it('reads plain praise and an opening "no," and numbers the turn', () => {
    expect(phrases('thanks, that works')).toEqual(['positive:that works', 'positive:thanks']);
    expect(phrases('no, the other file')).toEqual(['negative:no']);
    expect(phrases('there is no way around it')).toEqual([]);
    expect(detectFeedback('perfect', 7)[0]).toEqual({ kind: 'user-feedback', polarity: 'positive', phrase: 'perfect', turn: 7 });
  });

  it('takes a team’s own phrases from the environment', () => {
    const lexicon = feedbackLexicon({ SKILLOPT_SLEEP_NEG_FEEDBACK: 'falsch, geht nicht', SKILLOPT_SLEEP_POS_FEEDBACK: 'danke' });
    expect(phrases('das geht nicht, danke', lexicon)).toEqual(['negative:geht nicht', 'positive:danke']);
  });

  it('matches a phrase whatever its case, in the prompt and in a lexicon given by hand', () => {
    expect(phrases('STILL BROKEN after the change, Thanks anyway')).toEqual(['negative:still broken', 'positive:thanks']);
    expect(phrases('Ship It now', { negative: [], positive: ['SHIP IT'] })).toEqual(['positive:SHIP IT']);
  });
});
