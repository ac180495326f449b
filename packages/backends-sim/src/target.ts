import { guessShapeFromQuestion, plausibleWrongAnswer, unitForQuestion, type AnswerKey, type AnswerKeyEntry, type AnswerShape } from './answer-key.js';
import { isoDate, parseWrittenDate, slashDate } from './dates.js';
import { classesForShape, readSkillRules, type FailureClass, type RuleEffects } from './failure-classes.js';
import { hashHex, pick, unitHash } from './hashing.js';
import { numberToWords, parseNumeral } from './numbers.js';
import { normalizeAnswer } from './text.js';

export interface TargetSettings {
  seed: number;
  noise: number;
  tendencyRates: Readonly<Record<FailureClass, number>>;
}

/** Headings an env puts after the skill for its own fixed instructions. */
const ENVELOPE_HEADINGS = '(?:task|the task|your task)';

/**
 * The skill inside a system prompt. A `<skill>…</skill>` block, or the text after a heading that
 * is just "Skill" (`# Skill`, `## Skill`) up to the last later heading of the same level that is
 * just "Task" (`# Task`: the env's own instructions), is taken as the
 * skill; otherwise the whole system prompt is. The env's framing ("end your reply with your final
 * answer inside <answer></answer>") is not a rule of the skill, so it changes nothing.
 */
export function skillFromSystemPrompt(system: string): string {
  const tagged = /<skill>([\s\S]*?)<\/skill>/i.exec(system);
  if (tagged) return tagged[1] ?? '';
  const heading = /^(#{1,6})[ \t]*(?:the[ \t]+)?skill(?:[ \t]+document)?[ \t]*:?[ \t]*$/im.exec(system);
  if (!heading) return system;
  const rest = system.slice((heading.index ?? 0) + heading[0].length);
  const level = (heading[1] as string).length;
  const envelope = new RegExp(`^#{${level}}[ \\t]+${ENVELOPE_HEADINGS}[ \\t]*:?[ \\t]*$`, 'gim');
  const ends = [...rest.matchAll(envelope)];
  const last = ends[ends.length - 1];
  return last === undefined ? rest : rest.slice(0, last.index);
}

/** Which failure classes fire for one item under one skill, and why. */
export interface TargetDecision {
  shape: AnswerShape;
  /** The item's latent tendencies (fixed per item and seed, whatever the skill). */
  tendencies: FailureClass[];
  /** The classes that fire under this skill. */
  active: FailureClass[];
  truncated: boolean;
  noisy: boolean;
  /** The answer before any formatting habit (the gold, or a wrong one under noise or ignorance). */
  baseAnswer: string;
  known: boolean;
}

const GIVEN_NAMES = ['Marie', 'John', 'Albert', 'Isaac', 'Ada', 'Charles', 'Rosalind', 'Nikola', 'Jane', 'Thomas', 'Emmy', 'Louis'];

/** The answer with the shape-specific habit applied, or undefined when it would not change the score. */
export function shapeHabit(
  failureClass: FailureClass,
  answer: string,
  entry: { question: string; references: readonly string[]; unit?: string },
  seedParts: Array<string | number>,
): string | undefined {
  let changed: string | undefined;
  switch (failureClass) {
    case 'number-words': {
      const value = parseNumeral(answer);
      if (value !== undefined) changed = numberToWords(value);
      break;
    }
    case 'date-format': {
      const date = parseWrittenDate(answer);
      if (date !== undefined) changed = pick([isoDate, slashDate], ...seedParts, 'date-style')(date);
      break;
    }
    case 'unit-appended':
      changed = `${answer} ${entry.unit ?? unitForQuestion(entry.question) ?? 'units'}`;
      break;
    case 'full-name': {
      if (/\s/.test(answer.trim())) break;
      // A reference that already is the full name would be accepted by the scorer: no failure then.
      const fullNameAccepted = entry.references.some(
        (reference) => /\s/.test(reference.trim()) && normalizeAnswer(reference).endsWith(normalizeAnswer(answer)),
      );
      if (fullNameAccepted) break;
      const given = pick(
        GIVEN_NAMES.filter((name) => name.toLowerCase() !== answer.toLowerCase()),
        ...seedParts,
        'given-name',
      );
      changed = `${given} ${answer}`;
      break;
    }
    default:
      return undefined;
  }
  if (changed === undefined) return undefined;
  const normalized = normalizeAnswer(changed);
  return entry.references.some((reference) => normalizeAnswer(reference) === normalized) ? undefined : changed;
}

/**
 * Which of an item's possible classes fire under a skill's rules: a fixing rule switches its class
 * off, a harmful one on for every item, both together (contradictory rules) on for about half of the
 * items; without either the item's latent tendency decides.
 */
export function firingClasses(
  seed: number,
  itemKey: string,
  possible: readonly FailureClass[],
  tendencies: readonly FailureClass[],
  effects: RuleEffects,
): FailureClass[] {
  return possible.filter((failureClass) => {
    const fixed = effects.fixes.has(failureClass);
    const harmed = effects.harms.has(failureClass);
    if (harmed && fixed) return unitHash(seed, 'conflict', itemKey, failureClass) < 0.5; // the model follows one or the other
    if (harmed) return true;
    if (fixed) return false;
    return tendencies.includes(failureClass);
  });
}

/**
 * Decides how the simulated target answers one item under one skill. Deterministic in (seed, item,
 * skill): the tendencies depend on the item only; noise and wording on the item and the skill.
 */
export function decideTargetBehaviour(
  settings: TargetSettings,
  key: AnswerKey,
  entry: AnswerKeyEntry | undefined,
  questionText: string,
  skill: string,
  effects: RuleEffects = readSkillRules(skill),
): TargetDecision {
  const itemKey = entry?.normalizedQuestion ?? normalizeAnswer(questionText);
  const skillHash = hashHex(skill).slice(0, 16);
  const shape = entry?.shape ?? guessShapeFromQuestion(questionText);
  const tendencies = classesForShape(shape).filter(
    (failureClass) => unitHash(settings.seed, 'tendency', itemKey, failureClass) < settings.tendencyRates[failureClass],
  );
  const active = firingClasses(settings.seed, itemKey, classesForShape(shape), tendencies, effects);
  const truncated = effects.harms.has('truncation') && (shape === 'multiword_name' || shape === 'date');
  const noisy = entry !== undefined && unitHash(settings.seed, 'noise', itemKey, skillHash) < settings.noise;
  const baseAnswer =
    entry === undefined
      ? plausibleWrongAnswer(key, shape, undefined, settings.seed, 'unknown', itemKey)
      : noisy
        ? plausibleWrongAnswer(key, shape, entry.gold, settings.seed, 'noise', itemKey, skillHash)
        : entry.gold;
  return { shape, tendencies, active, truncated, noisy, baseAnswer, known: entry !== undefined };
}

const VERBOSE_TEMPLATES = [
  (answer: string) => `The answer is ${answer}.`,
  (answer: string) => `Based on the context, it is ${answer}.`,
  (answer: string) => `According to the sources, the answer to the question is ${answer}.`,
  (answer: string) => `It was ${answer}, as the question suggests.`,
];
const CHATTY_TEMPLATES = [
  (answer: string) => `So my final answer would be ${answer}, I think!`,
  (answer: string) => `Hope that helps: it's ${answer}.`,
  (answer: string) => `All things considered, I'd go with ${answer}.`,
];
const MALFORMED_TEMPLATES = [
  (answer: string) => `<answer>${answer}</answer`,
  (answer: string) => `[answer]${answer}[/answer]`,
  (answer: string) => `<answer>${answer}<answer>`,
  (answer: string) => `<answer ${answer}>`,
];
const REASONING_OPENERS = ['Let me work through this step by step.', 'I will reason about the question first.', 'Thinking it through carefully.'];

/** The reply text for a decision: reasoning lines, then the answer with every active habit applied. */
export function renderTargetReply(
  decision: TargetDecision,
  entry: { question: string; references: readonly string[]; unit?: string } | undefined,
  questionText: string,
  seedParts: Array<string | number>,
  afterTools = false,
): string {
  const context = entry ?? { question: questionText, references: [] };
  let answer = decision.baseAnswer;
  if (decision.truncated) {
    const date = parseWrittenDate(answer);
    answer = date !== undefined ? String(date.year) : (answer.trim().split(/\s+/)[0] ?? answer);
  }
  for (const failureClass of decision.active) {
    if (failureClass === 'verbosity' || failureClass === 'missing-tag' || failureClass === 'malformed-tag') continue;
    answer = shapeHabit(failureClass, answer, context, seedParts) ?? answer;
  }
  if (decision.active.includes('verbosity')) answer = pick(VERBOSE_TEMPLATES, ...seedParts, 'verbose')(answer);
  const opener = pick(REASONING_OPENERS, ...seedParts, 'opener');
  const middle = afterTools
    ? 'The tool results and what I know (simulated knowledge) point to one answer.'
    : decision.known
      ? 'I recall the relevant fact (from my simulated knowledge) and check it against the question.'
      : 'I am not certain about this one, so I give my best guess.';
  let final: string;
  if (decision.active.includes('missing-tag')) final = decision.active.includes('verbosity') ? answer : pick(CHATTY_TEMPLATES, ...seedParts, 'chatty')(answer);
  else if (decision.active.includes('malformed-tag')) final = pick(MALFORMED_TEMPLATES, ...seedParts, 'malformed')(answer);
  else final = `<answer>${answer}</answer>`;
  return `${opener} ${middle}\n\n${final}`;
}
