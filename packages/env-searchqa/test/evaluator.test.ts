import { exactMatch, extractTaggedAnswer, normaliseAnswer, tokenF1 } from '@skillopt/env-kit';
import { diagnoseMismatch, scoreSearchQaReply, substringMatch } from '../src/index';

describe('the SearchQA evaluator: the spec vectors', () => {
  it('normalises the SQuAD way', () => {
    expect(normaliseAnswer('The  Quick, brown fox!')).toBe('quick brown fox');
  });

  it('scores a tagged answer with an article as an exact match', () => {
    const score = scoreSearchQaReply('<answer>The Eiffel Tower</answer>', ['Eiffel Tower']);
    expect(score).toMatchObject({ prediction: 'The Eiffel Tower', source: 'tag', em: 1, f1: 1, hard: 1, soft: 1 });
    expect(score.failureReason).toBeUndefined();
  });

  it('gives token F1 0.8 for "new york city" against "New York"', () => {
    expect(tokenF1('new york city', ['New York'])).toBeCloseTo(0.8, 10);
    const score = scoreSearchQaReply('<answer>new york city</answer>', ['New York']);
    expect(score.hard).toBe(0);
    expect(score.soft).toBeCloseTo(0.8, 10);
    expect(score.subEm).toBe(1);
  });

  it('keeps the original\'s match of two answers that both normalise to nothing ("a" vs "an")', () => {
    expect(scoreSearchQaReply('<answer>a</answer>', ['an']).em).toBe(1);
  });
});

describe('answer extraction', () => {
  it('takes the last <answer> tag when there are several', () => {
    expect(scoreSearchQaReply('<answer>Paris</answer> wait, no: <answer>Lyon</answer>', ['Lyon'])).toMatchObject({ prediction: 'Lyon', hard: 1 });
  });

  it('reads a tag whose content spans lines, trimmed', () => {
    expect(extractTaggedAnswer('Thinking...\n<answer>\n  Great Barrier\n  Reef\n</answer>\n')).toBe('Great Barrier\n  Reef');
    expect(scoreSearchQaReply('<answer>\nGreat Barrier\nReef\n</answer>', ['Great Barrier Reef']).hard).toBe(1);
  });

  it('is case-insensitive about the tag name', () => {
    expect(scoreSearchQaReply('<ANSWER>Canberra</ANSWER>', ['Canberra'])).toMatchObject({ source: 'tag', hard: 1 });
    expect(scoreSearchQaReply('<Answer>Canberra</aNsWeR>', ['Canberra']).hard).toBe(1);
  });

  it('falls back to the last non-empty line when there is no tag', () => {
    const score = scoreSearchQaReply('Let me think.\nThe capital is well known.\nCanberra\n\n   \n', ['Canberra']);
    expect(score).toMatchObject({ prediction: 'Canberra', source: 'last-line', hard: 1 });
  });

  it('scores an empty reply and an empty tag as 0, never as a match', () => {
    expect(scoreSearchQaReply('', ['The'])).toMatchObject({ prediction: '', source: 'none', em: 0, f1: 0, subEm: 0, hard: 0 });
    expect(scoreSearchQaReply('<answer>  </answer>', ['x'])).toMatchObject({ em: 0, f1: 0, subEm: 0, failureReason: 'the <answer> tag is empty' });
    expect(exactMatch('', ['The'])).toBe(0);
  });

  it("never counts an empty prediction as a substring match (the original's sub_em did)", () => {
    expect(substringMatch('', ['x'])).toBe(0);
    expect(substringMatch('the', ['x'])).toBe(0);
    expect(substringMatch('Paris France', ['paris'])).toBe(1);
  });

  it('ignores case, punctuation and articles', () => {
    expect(scoreSearchQaReply('<answer>The Appian Way!</answer>', ['appian way']).hard).toBe(1);
  });

  it('takes the best of several references', () => {
    const score = scoreSearchQaReply('<answer>Pacific</answer>', ['Pacific Ocean', 'Pacific']);
    expect(score).toMatchObject({ em: 1, f1: 1 });
  });
});

describe('failure reasons', () => {
  const reasonFor = (reply: string, references: string[]) => scoreSearchQaReply(reply, references).failureReason ?? '';

  it('says when there is no <answer> tag', () => {
    expect(reasonFor('I believe it is Sydney', ['Canberra'])).toMatch(/no <answer> tag/);
  });

  it('says when the tag is malformed or not closed', () => {
    expect(reasonFor('<answer>Canberra', ['Canberra'])).toMatch(/malformed or not closed/);
    expect(reasonFor('<answer>Canberra</answr>', ['Canberra'])).toMatch(/malformed or not closed/);
  });

  it('says when a correct answer is surrounded by extra words', () => {
    expect(reasonFor('<answer>The answer is Canberra.</answer>', ['Canberra'])).toMatch(/extra words around/);
    expect(reasonFor('<answer>It is the Pacific Ocean, the largest</answer>', ['Pacific Ocean'])).toMatch(/extra words around/);
  });

  it('says when a unit follows the expected bare number', () => {
    expect(reasonFor('<answer>42.195 km</answer>', ['42.195'])).toMatch(/words follow it \(such as a unit\)/);
    expect(reasonFor('<answer>100 degrees Celsius</answer>', ['100'])).toMatch(/bare number/);
  });

  it('says when a first name precedes an expected single word', () => {
    expect(reasonFor('<answer>Jane Austen</answer>', ['Austen'])).toMatch(/adds words before it \(such as a first name/);
    expect(reasonFor('<answer>Leonardo da Vinci</answer>', ['Vinci'])).toMatch(/first name/);
  });

  it('says when digits were expected and the number is in words', () => {
    expect(reasonFor('<answer>eight</answer>', ['8'])).toBe('expected digits, but the number is written in words');
    expect(reasonFor('<answer>Nineteen sixty-nine</answer>', ['1969'])).toMatch(/written in words/);
  });

  it('says when a date is in another format', () => {
    for (const reply of ['1969-07-20', '20 July 1969', '7/20/1969', 'July 20th, 1969']) {
      expect(reasonFor(`<answer>${reply}</answer>`, ['July 20, 1969'])).toMatch(/date in a different format/);
    }
  });

  it('says when the answer only partly overlaps or is simply different', () => {
    expect(reasonFor('<answer>New Zealand</answer>', ['New York'])).toBe('a different answer that only partly overlaps the reference');
    expect(reasonFor('<answer>Sydney</answer>', ['Canberra'])).toBe('a different answer from the reference');
  });

  it('combines a missing tag with what is wrong with the last line', () => {
    expect(reasonFor('Thinking.\nThe answer is Canberra.', ['Canberra'])).toBe(
      'no <answer> tag, so the last line of the reply was scored instead; the answer holds the reference plus 2 extra words around it',
    );
  });

  it('has no reason for a correct answer', () => {
    expect(scoreSearchQaReply('<answer>8</answer>', ['8']).failureReason).toBeUndefined();
  });

  it('diagnoses an empty reply', () => {
    expect(diagnoseMismatch('', '', 'none', ['x'])).toBe('the reply holds no answer at all');
  });
});
