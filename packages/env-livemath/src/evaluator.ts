import { extractChoiceLetter, locateTaggedAnswer } from '@skillopt/env-kit';
import type { LiveMathChoice } from './items.js';

/** Where the scored answer was taken from (see env-kit's `locateTaggedAnswer`). */
export type AnswerSource = 'tag' | 'last-line' | 'none';

export interface LiveMathScore {
  /** The extracted answer text: the last `<answer>…</answer>`, else the last non-empty line, else "". */
  prediction: string;
  source: AnswerSource;
  /** The label the answer picks, or null when it names no choice. */
  predictedLabel: string | null;
  correctLabel: string;
  /** 1 when the picked label is the correct one. Multiple choice has no partial credit: soft = hard. */
  hard: 0 | 1;
  soft: 0 | 1;
  /** Why the answer was not accepted, in neutral words, when it was not. */
  failureReason?: string;
}

/** The choices as the record env-kit's letter reader takes: `{A: text, B: text, …}`. */
function choiceRecord(choices: readonly LiveMathChoice[]): Record<string, string> {
  return Object.fromEntries(choices.map((choice) => [choice.label, choice.text]));
}

/** "A–E", or the labels listed when they are not consecutive. */
function describeLabels(choices: readonly LiveMathChoice[]): string {
  const labels = choices.map((choice) => choice.label);
  const consecutive = labels.every((label, index) => index === 0 || label.charCodeAt(0) === (labels[index - 1] ?? '').charCodeAt(0) + 1);
  return consecutive && labels.length > 2 ? `${labels[0]}–${labels.at(-1)}` : labels.join(', ');
}

function whyNoChoice(reply: string, prediction: string, source: AnswerSource, choices: readonly LiveMathChoice[]): string {
  if (source === 'none') return 'the reply holds no answer at all';
  if (source === 'tag' && prediction === '') return 'the <answer> tag is empty';
  const reasons: string[] = [];
  if (source === 'last-line') {
    reasons.push(
      /<answer\b[^>]*>/i.test(reply) || /<\/answer>/i.test(reply)
        ? 'the <answer> tag is malformed or not closed, so the last line of the reply was read instead'
        : 'no <answer> tag, so the last line of the reply was read instead',
    );
  }
  const lone = /^[([]?\s*([A-Za-z])\s*[)\].:]?$/.exec(prediction.trim());
  if (lone !== null) reasons.push(`"${lone[1]?.toUpperCase()}" is not one of the labels (${describeLabels(choices)})`);
  else reasons.push(`the answer names none of the choices (${describeLabels(choices)}) by its label or its exact text`);
  return reasons.join('; ');
}

/**
 * Scores one reply to a multiple-choice question: take the answer (last `<answer>` tag, case
 * insensitive, may span lines; else the last non-empty line), read the label it picks with
 * env-kit's `extractChoiceLetter` ("B", "b", "B.", "(B)", "(b)", "Answer: B", "B. because …", or
 * one choice's exact text), and compare with the correct label. hard = soft = 1 when they agree.
 * A blank answer, or one that names no choice, is wrong.
 */
export function scoreLiveMathReply(reply: string, choices: readonly LiveMathChoice[], correctLabel: string): LiveMathScore {
  const { answer: prediction, source } = locateTaggedAnswer(reply);
  const predictedLabel = prediction === '' ? null : extractChoiceLetter(prediction, choiceRecord(choices));
  const correct = predictedLabel !== null && predictedLabel === correctLabel.toUpperCase();
  const score: LiveMathScore = {
    prediction,
    source,
    predictedLabel,
    correctLabel,
    hard: correct ? 1 : 0,
    soft: correct ? 1 : 0,
  };
  if (!correct) {
    if (predictedLabel === null) score.failureReason = whyNoChoice(reply, prediction, source, choices);
    else {
      const picked = choices.find((choice) => choice.label === predictedLabel);
      const detail = source === 'last-line' ? ' (no <answer> tag; read from the last line)' : '';
      score.failureReason = `chose ${predictedLabel}${picked === undefined ? '' : ` ("${picked.text}")`}, which is not the correct choice${detail}`;
    }
  }
  return score;
}
