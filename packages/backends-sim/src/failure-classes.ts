import type { AnswerShape } from './answer-key.js';
import {
  ALFWORLD_CLASS_DESCRIPTIONS,
  ALFWORLD_FAILURE_CLASSES,
  ALFWORLD_GOOD_RULE_PHRASINGS,
  ALFWORLD_GOOD_RULES,
  ALFWORLD_HARMFUL_RULE_PHRASINGS,
  ALFWORLD_HARMFUL_RULES,
  ALFWORLD_TENDENCY_RATES,
} from './alfworld-failure-classes.js';
import { gap, rule, type RulePattern } from './rule-patterns.js';
import {
  SPREADSHEET_CLASS_DESCRIPTIONS,
  SPREADSHEET_FAILURE_CLASSES,
  SPREADSHEET_GOOD_RULE_PHRASINGS,
  SPREADSHEET_GOOD_RULES,
  SPREADSHEET_HARMFUL_RULE_PHRASINGS,
  SPREADSHEET_HARMFUL_RULES,
  SPREADSHEET_TENDENCY_RATES,
} from './spreadsheet-failure-classes.js';
import {
  SLEEP_CLASS_DESCRIPTIONS,
  SLEEP_FAILURE_CLASSES,
  SLEEP_FORMAT_HARM,
  SLEEP_FORMAT_HARM_RULES,
  SLEEP_GOOD_RULE_PHRASINGS,
  SLEEP_GOOD_RULES,
  SLEEP_HARMFUL_RULE_PHRASINGS,
  SLEEP_HARMFUL_RULES,
  SLEEP_TENDENCY_RATES,
  type SleepFormatHarm,
} from './sleep-failure-classes.js';

/**
 * The procedural failures of the simulated target, each one the SearchQA scorer really detects,
 * and how a skill's text switches them off (a rule that addresses the class) or on (a harmful rule).
 */
const ANSWER_FAILURE_CLASSES = [
  /** A sentence around the answer inside the tag (`<answer>The answer is Paris.</answer>`). */
  'verbosity',
  /** No answer tag at all; the last line is chatty, so the scorer reads the wrong text. */
  'missing-tag',
  /** A broken tag (`<answer>Paris</answer`, `[answer]Paris[/answer]`). */
  'malformed-tag',
  /** A number written in words (`eight` for `8`). */
  'number-words',
  /** A date in a numeric format (`1969-07-20`, `20/07/1969`) for a written-out date. */
  'date-format',
  /** A unit appended to a quantity whose gold is the bare number (`330 metres`). */
  'unit-appended',
  /** A full name where the gold is the surname (`Marie Curie` for `Curie`). */
  'full-name',
] as const;
export type AnswerFailureClass = (typeof ANSWER_FAILURE_CLASSES)[number];
/**
 * The answer classes, then the spreadsheet code writer's (`spreadsheet-failure-classes.ts`), the
 * ALFWorld player's (`alfworld-failure-classes.ts`) and Sleep's tasks' (`sleep-failure-classes.ts`).
 */
export const FAILURE_CLASSES = [...ANSWER_FAILURE_CLASSES, ...SPREADSHEET_FAILURE_CLASSES, ...ALFWORLD_FAILURE_CLASSES, ...SLEEP_FAILURE_CLASSES] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

/**
 * What a harmful rule can cause: any failure class, cutting a multi-word answer to one word, or
 * (on Sleep's tasks) ignoring the requested format, which shows every Sleep habit at once.
 */
export type HarmKind = FailureClass | 'truncation' | SleepFormatHarm;
/** What a harmful rule can cause in an answer (a QA reply). */
export const ANSWER_HARM_KINDS: readonly HarmKind[] = [...ANSWER_FAILURE_CLASSES, 'truncation'];
export const HARM_KINDS: readonly HarmKind[] = [
  ...ANSWER_HARM_KINDS,
  ...SPREADSHEET_FAILURE_CLASSES,
  ...ALFWORLD_FAILURE_CLASSES,
  ...SLEEP_FAILURE_CLASSES,
  SLEEP_FORMAT_HARM,
];

const GENERAL_CLASSES: readonly FailureClass[] = ['verbosity', 'missing-tag', 'malformed-tag'];

/** The shape-specific class that applies to each answer shape, if any. */
const SHAPE_CLASS: Readonly<Record<AnswerShape, FailureClass | undefined>> = {
  number: 'number-words',
  date: 'date-format',
  quantity: 'unit-appended',
  person_surname: 'full-name',
  name: undefined,
  multiword_name: undefined,
};

/** The classes that can happen to an answer of this shape. */
export function classesForShape(shape: AnswerShape): FailureClass[] {
  const specific = SHAPE_CLASS[shape];
  return specific === undefined ? [...GENERAL_CLASSES] : [...GENERAL_CLASSES, specific];
}

/**
 * How often an item carries each latent tendency (drawn once per item and seed). Calibrated so that
 * a skill without rules passes roughly a quarter to a third of a mixed set.
 */
export const DEFAULT_TENDENCY_RATES: Readonly<Record<FailureClass, number>> = {
  verbosity: 0.35,
  'missing-tag': 0.15,
  'malformed-tag': 0.12,
  'number-words': 0.6,
  'date-format': 0.6,
  'unit-appended': 0.65,
  'full-name': 0.65,
  ...SPREADSHEET_TENDENCY_RATES,
  ...ALFWORLD_TENDENCY_RATES,
  ...SLEEP_TENDENCY_RATES,
};

// ---------------------------------------------------------------------------------------------
// Recognising rules in a skill's text
// ---------------------------------------------------------------------------------------------

const TAG = '(?:<answer>|</answer>|answer[- ]tags?|tags?)';

const GOOD_RULES: Readonly<Record<FailureClass, readonly RulePattern[]>> = {
  verbosity: [
    rule('\\bnothing (?:else|more|but the (?:bare )?(?:answer|entity|value))\\b', false),
    rule(
      "\\b(?:no|without(?: any)?|never (?:add|include|write|put|use)|do not (?:add|include|write|put|use)|don't (?:add|include|write|put|use)|avoid)\\b[^.;\\n]{0,40}?\\b(?:explanations?|extra (?:words|text)|additional (?:words|text)|full sentences?|complete sentences?|commentary|filler|preamble|surrounding (?:words|text)|sentences?|prose|elaboration)\\b",
      false,
    ),
    rule('\\b(?:bare|minimal|shortest)\\b[^.;\\n]{0,25}?\\b(?:answer|span|phrase|entity|noun phrase)\\b'),
    rule(
      `\\b(?:only|just|solely|exclusively)\\b[^.;\\n]{0,30}?\\b(?:answer|entity|name|value|number|date|phrase|span)\\b[^.;\\n]{0,30}?\\b(?:inside|in|within|between)\\b[^.;\\n]{0,20}?${TAG}`,
    ),
    rule(`${TAG}[^.;\\n]{0,40}?\\b(?:must |should )?(?:contains?|holds?|includes?|has|have)\\b[^.;\\n]{0,15}?\\bonly\\b`),
    rule('\\bnot (?:a|as a) (?:full |complete )?sentence\\b', false),
  ],
  'missing-tag': [
    rule('\\b(?:always|must|every|each|mandatory|required|require)\\b[^.;\\n]{0,60}?(?:<answer>|answer[- ]tags?|\\btags\\b)'),
    rule(
      '(?:<answer>|answer[- ]tags?)[^.;\\n]{0,60}?\\b(?:always|every (?:reply|response|answer|time)|mandatory|required|must (?:always )?(?:be (?:present|included|used)|appear))\\b',
    ),
    rule("\\b(?:never|do not|don't)\\s+(?:omit|forget|skip|drop|leave out)\\b[^.;\\n]{0,40}?(?:<answer>|tags?)", false),
    rule(
      '\\b(?:end|finish|conclude)\\b[^.;\\n]{0,30}?\\b(?:reply|response|answer|output)\\b[^.;\\n]{0,30}?\\b(?:with|in)\\b[^.;\\n]{0,30}?(?:<answer>|answer[- ]tag)',
    ),
  ],
  'malformed-tag': [
    rule('\\b(?:close|closing)\\b[^.;\\n]{0,40}?(?:tags?|</answer>)'),
    rule('\\b(?:exact(?:ly)?|verbatim|character for character|precisely)\\b[^.;\\n]{0,40}?(?:<answer>|tags?)'),
    rule('(?:<answer>|\\btags?\\b)[^.;\\n]{0,40}?\\b(?:exactly|verbatim|character for character)\\b'),
    rule('\\b(?:well[- ]formed|properly (?:formed|closed|paired)|matching|balanced|angle[- ]brackets?)\\b[^.;\\n]{0,40}?(?:tags?|<answer>)'),
    rule('\\b(?:not|never|no)\\b[^.;\\n]{0,20}?(?:square brackets|\\[answer\\]|other (?:tag|bracket) (?:styles|formats|variants))', false),
  ],
  'number-words': [
    rule(
      '\\b(?:use|write|give|express|report|state|answer with|written (?:as|in)|in)\\b[^.;\\n]{0,40}?\\b(?:digits|numerals|numeric form|numerical form|figures)\\b',
    ),
    rule(
      "\\b(?:never|do not|don't|avoid)\\b[^.;\\n]{0,10}?\\b(?:spell|spelling|write|writing)\\b[^.;\\n]{0,20}?\\bnumbers?\\b[^.;\\n]{0,15}?\\b(?:out|in words|as words)\\b",
      false,
    ),
    rule("\\b(?:never|do not|don't|avoid)\\b[^.;\\n]{0,10}?\\bspell(?:ing)?\\s+(?:out\\s+)?(?:numbers|numerals|counts|quantities)\\b", false),
    rule('\\bnumbers?\\b[^.;\\n]{0,30}?\\b(?:as|in|with) (?:digits|numerals|arabic numerals)\\b'),
    rule('\\b(?:digits|numerals)\\b[^.;\\n]{0,10}?\\b(?:not|rather than|instead of)\\b[^.;\\n]{0,10}?\\bwords\\b'),
  ],
  'date-format': [
    rule('\\b(?:the |full |spelled[- ]out |written[- ]out )?month names?\\b'),
    rule('\\bmonth\\s+(?:day|d{1,2})\\s*,?\\s+(?:year|y{4})\\b'),
    rule(
      '\\b(?:not|never|avoid|no|rather than|instead of)\\b[^.;\\n]{0,25}?(?:\\biso\\b|yyyy-mm-dd|\\bnumeric dates?\\b|\\bnumerical dates?\\b|dd/mm/yyyy|mm/dd/yyyy|all-numeric)',
      false,
    ),
    rule(
      '\\bdates?\\b[^.;\\n]{0,40}?\\b(?:as written in|the way (?:they appear|the (?:source|sources|context|question))|natural (?:form|format|language)|long form|written out)\\b',
    ),
  ],
  'unit-appended': [
    rule(
      "\\b(?:omit|drop|leave out|strip|remove|exclude|without|no|never (?:add|include|append|write)|do not (?:add|include|append|write)|don't (?:add|include|append|write))\\b[^.;\\n]{0,30}?\\b(?:units?|unit of measure(?:ment)?|measurement units?|units of measure(?:ment)?)\\b",
    ),
    rule('\\b(?:bare|plain|only the|just the)\\s+(?:number|numeric value|numerical value|value|figure|quantity)\\b'),
    rule('\\bunits?\\b[^.;\\n]{0,30}?\\b(?:omitted|dropped|left out|excluded|not included|unnecessary)\\b'),
    rule('\\bnumber alone\\b'),
  ],
  'full-name': [
    rule('(?<!(?:first|given) (?:and|&) )\\b(?:surname|last name|family name)s?\\b'),
    rule('\\b(?:omit|drop|leave out|without)\\b[^.;\\n]{0,20}?\\b(?:first|given|christian) names?\\b'),
    rule('\\b(?:not|never|avoid|rather than|instead of)\\b[^.;\\n]{0,15}?\\b(?:the |their |a )?(?:full|complete|whole) (?:personal )?names?\\b', false),
  ],
  ...SPREADSHEET_GOOD_RULES,
  ...ALFWORLD_GOOD_RULES,
  ...SLEEP_GOOD_RULES,
};

const HARMFUL_RULES: Readonly<Record<HarmKind, readonly RulePattern[]>> = {
  verbosity: [
    rule(`\\b(?:answer|respond|reply|write|phrase)\\b${gap(30)}\\b(?:in|as|with|using)\\s+(?:a |one )?(?:full|complete|whole) sentences?\\b`),
    rule('\\b(?:use|write in)\\s+(?:full|complete) sentences\\b'),
    rule(`\\b(?:explain|justify|elaborate)\\b${gap(50)}\\b(?:inside|within|in)\\b${gap(20)}(?:answer|tags?)\\b`),
    rule(
      `\\b(?:include|add|give)\\b${gap(30)}\\b(?:explanation|justification|reasoning|context|sentence)\\b${gap(30)}\\b(?:inside|within|in)\\b${gap(20)}(?:answer|tags?)\\b`,
    ),
  ],
  'missing-tag': [
    rule("\\b(?:no|without|never use|do not use|don't use|avoid)\\b[^.;,\\n]{0,20}?\\b(?:tags?|markup|xml|html|angle brackets)\\b"),
    rule(`\\b(?:answer|respond|reply)\\b${gap(20)}\\bin plain (?:text|prose)\\b`),
  ],
  'malformed-tag': [rule('\\[answer\\]'), rule('\\b(?:square|curly) brackets\\b')],
  'number-words': [
    rule('\\bspell(?:ing)?\\s+(?:out\\s+)?(?:all\\s+)?(?:numbers|numerals|counts|quantities|numeric answers)\\b'),
    rule(`\\b(?:numbers|numerals|counts|numeric answers)\\b${gap(25, ['digits', 'numerals'])}\\b(?:in|as|using) (?:words|letters|english words)\\b`),
  ],
  'date-format': [rule('(?:\\biso(?:[- ]?8601)?\\b|yyyy-mm-dd|dd/mm/yyyy|mm/dd/yyyy|\\bnumeric date format|\\bnumerical dates?\\b)')],
  'unit-appended': [
    rule(`\\b(?:include|add|append|attach|state|mention|specify|keep|give)\\b${gap(30)}\\bunits?\\b`),
    rule("\\b(?:never|do not|don't)\\s+(?:omit|drop|leave out)\\b[^.;\\n]{0,20}?\\bunits?\\b", false),
    rule('\\bwith (?:its|the|their) units?\\b'),
  ],
  'full-name': [
    rule('\\b(?:full|complete|entire|whole)\\s+(?:personal\\s+|proper\\s+)?names?\\b'),
    rule('\\b(?:first|given)\\s+(?:and|\\+)\\s+(?:last|family)\\s+names?\\b'),
    rule(`\\binclude\\b${gap(20)}\\b(?:first|given) names?\\b`),
  ],
  truncation: [rule('\\b(?:single|one)[- ]word\\b')],
  ...SPREADSHEET_HARMFUL_RULES,
  ...ALFWORLD_HARMFUL_RULES,
  ...SLEEP_HARMFUL_RULES,
  [SLEEP_FORMAT_HARM]: SLEEP_FORMAT_HARM_RULES,
};

const NEGATION = /\b(?:never|not|no|don't|dont|do not|avoid|without|rather than|instead of|nor|neither|isn't|aren't|shouldn't|mustn't|cannot|can't)\b|n't\b/i;
const CLAUSE_BOUNDARY = /[,;:]|\bbut\b|\bthen\b/gi;

function isNegated(sentence: string, matchStart: number): boolean {
  const before = sentence.slice(0, matchStart);
  let scopeStart = 0;
  for (const boundary of before.matchAll(CLAUSE_BOUNDARY)) scopeStart = (boundary.index ?? 0) + boundary[0].length;
  return NEGATION.test(before.slice(scopeStart));
}

function sentencesOf(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

function matchesAny(sentence: string, patterns: readonly RulePattern[]): boolean {
  for (const { pattern, negatable } of patterns) {
    pattern.lastIndex = 0;
    for (const match of sentence.matchAll(pattern)) {
      if (!negatable || !isNegated(sentence, match.index ?? 0)) return true;
    }
  }
  return false;
}

/** What a skill's rules do to the simulated target: the classes they fix and the harms they cause. */
export interface RuleEffects {
  readonly fixes: ReadonlySet<FailureClass>;
  readonly harms: ReadonlySet<HarmKind>;
}

/** Skills whose rules were read lately: the simulator is asked about the same few skills thousands of times. */
const rulesOfRecentSkills = new Map<string, RuleEffects>();
const MAX_REMEMBERED_SKILLS = 64;

/**
 * Reads a skill's text as the simulated target does: each sentence is checked against keyword
 * groups per class (several phrasings, any case), and a negation in the same clause cancels a
 * positive instruction, so "never spell out numbers" fixes the class and "spell out numbers" harms it.
 */
export function readSkillRules(skill: string): RuleEffects {
  const remembered = rulesOfRecentSkills.get(skill);
  if (remembered) return remembered;
  const fixes = new Set<FailureClass>();
  const harms = new Set<HarmKind>();
  for (const sentence of sentencesOf(skill)) {
    for (const failureClass of FAILURE_CLASSES) if (matchesAny(sentence, GOOD_RULES[failureClass])) fixes.add(failureClass);
    for (const harm of HARM_KINDS) if (matchesAny(sentence, HARMFUL_RULES[harm])) harms.add(harm);
  }
  const effects: RuleEffects = { fixes, harms };
  // Oldest first in a Map: dropping the first key keeps the memory bounded on a long run.
  if (rulesOfRecentSkills.size >= MAX_REMEMBERED_SKILLS) rulesOfRecentSkills.delete(rulesOfRecentSkills.keys().next().value as string);
  rulesOfRecentSkills.set(skill, effects);
  return effects;
}

/** The lines of a skill that carry a harmful rule of one of these kinds (for the optimizer to replace). */
export function harmfulLines(skill: string, kinds: ReadonlySet<HarmKind>): string[] {
  return skill.split('\n').filter((line) => {
    if (line.trim() === '' || /<!--/.test(line)) return false;
    const { harms } = readSkillRules(line);
    return [...harms].some((harm) => kinds.has(harm));
  });
}

// ---------------------------------------------------------------------------------------------
// How the simulated optimizer words rules
// ---------------------------------------------------------------------------------------------

/** Rules that address each class, in several wordings (the optimizer picks one by seed). */
export const GOOD_RULE_PHRASINGS: Readonly<Record<FailureClass, readonly string[]>> = {
  verbosity: [
    'Put only the answer itself inside the <answer> tags: no explanation, no full sentence.',
    'Keep the final answer minimal: write the bare entity, number or date and nothing else.',
    'Inside <answer></answer>, never add explanations or extra words around the answer.',
    'Inside the answer tag put only the answer span, not a sentence that restates the question.',
  ],
  'missing-tag': [
    'Always finish your reply with the final answer wrapped in <answer></answer> tags, even when unsure.',
    'Every response must end with <answer>…</answer>; never omit the answer tags.',
    'Do not forget the answer tags: the grader only reads what is between <answer> and </answer>.',
    'End each response with the answer in an answer tag on its own last line.',
  ],
  'malformed-tag': [
    'Write the tags exactly as <answer> and </answer>, lower-case, with angle brackets and the closing slash.',
    'Check that the closing </answer> tag is complete before you finish; never use square brackets or other tag styles.',
    'Use well-formed answer tags: <answer>, then the answer, then </answer> — no variants like [answer].',
    'Copy the answer tag format character for character: an opening <answer> and a matching closing </answer>.',
  ],
  'number-words': [
    'Write numeric answers with digits, never spelled out in words.',
    'Give counts and other numbers as numerals, not as words.',
    'Express every number in numeric form (digits) rather than writing it out.',
    'Never spell out numbers: the grader compares digits exactly.',
  ],
  'date-format': [
    'Write dates with the full month name in the form Month D, YYYY; never use ISO or all-numeric dates.',
    'Give dates the way the sources write them, with the month spelled out, not as YYYY-MM-DD or DD/MM/YYYY.',
    'For dates, spell out the month name (Month D, YYYY) instead of a numeric date format.',
    'Never reformat dates into numbers: keep the written month name, day and year.',
  ],
  'unit-appended': [
    'For measurements, give the bare number without units.',
    'Leave out units of measurement: answer with the number alone.',
    'When the question asks for a quantity, write only the numeric value and omit the unit.',
    'Do not append units such as metres or kilograms to numeric answers.',
  ],
  'full-name': [
    'When the answer is a person, give only the surname (family name), not the full name.',
    'Answer person questions with the last name alone; omit first names.',
    'Use just the family name for people rather than their full names.',
    "Drop given names: a person's answer is the surname by itself.",
  ],
  ...SPREADSHEET_GOOD_RULE_PHRASINGS,
  ...ALFWORLD_GOOD_RULE_PHRASINGS,
  ...SLEEP_GOOD_RULE_PHRASINGS,
};

/** Plausible-sounding rules that make things worse (proposed at `harmfulRuleRate`). */
export const HARMFUL_RULE_PHRASINGS: Readonly<Record<HarmKind, readonly string[]>> = {
  verbosity: [
    'Answer in a complete sentence inside the tags so the answer is unambiguous.',
    'Explain briefly inside the answer tag why the answer is correct.',
  ],
  'missing-tag': ['Answer in plain prose without any tags or markup, so the reply reads naturally.'],
  'malformed-tag': ['Mark the answer clearly with square brackets, like [answer]…[/answer].'],
  'number-words': ['Spell out numbers in words so the answer reads naturally.'],
  'date-format': ['Write dates in ISO format (YYYY-MM-DD) to avoid ambiguity.'],
  'unit-appended': ['Always include the unit of measurement with numeric answers.'],
  'full-name': ["Always give a person's full name (first and last name) to avoid ambiguity."],
  truncation: ['Answer with a single word whenever possible.'],
  ...SPREADSHEET_HARMFUL_RULE_PHRASINGS,
  ...ALFWORLD_HARMFUL_RULE_PHRASINGS,
  ...SLEEP_HARMFUL_RULE_PHRASINGS,
};

/** Rules that change nothing (proposed at `uselessRuleRate`). */
export const USELESS_RULE_PHRASINGS: readonly string[] = [
  'Double-check your work before answering.',
  'Read the question carefully.',
  'Think step by step before you answer.',
  'Be accurate and careful.',
  'Consider all of the provided context before deciding.',
];

/** A short human name of each class, for reasoning texts and rationales. */
export const CLASS_DESCRIPTIONS: Readonly<Record<HarmKind, string>> = {
  verbosity: 'extra words or a whole sentence around the answer inside the answer tag',
  'missing-tag': 'no <answer> tag, so the grader read a chatty last line',
  'malformed-tag': 'a malformed answer tag the grader cannot read',
  'number-words': 'numbers written in words instead of digits',
  'date-format': 'dates in a numeric format instead of the written form of the reference',
  'unit-appended': 'a unit appended to a numeric answer whose reference is the bare number',
  'full-name': 'a full name where the reference is only the surname',
  truncation: 'a multi-word answer cut down to one word',
  ...SPREADSHEET_CLASS_DESCRIPTIONS,
  ...ALFWORLD_CLASS_DESCRIPTIONS,
  ...SLEEP_CLASS_DESCRIPTIONS,
};
