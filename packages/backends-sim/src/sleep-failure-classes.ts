import { gap, rule, type RulePattern } from './rule-patterns.js';

/**
 * The habits of the simulated target on Sleep's tasks (`taskType: 'sleep'`): each `rule:<key>` tag
 * names a format the developer wanted, and a reply without the matching rule in the skill shows a
 * habit that Sleep's exact-match judge really fails. Wrapping the answer in `<answer>` tags is the
 * answer family's `missing-tag` class (its rules are the same rules), so only the two habits below
 * are new classes.
 */
export const SLEEP_FAILURE_CLASSES = [
  /** An arXiv id written without its `arXiv:` prefix (`1706.03762` for `arXiv:1706.03762`). */
  'bare-arxiv-id',
  /** A commit subject in the past tense (`Added login form` for `Add login form`). */
  'past-tense-commit',
] as const;
export type SleepFailureClass = (typeof SLEEP_FAILURE_CLASSES)[number];

/** The one harm of Sleep's tasks that is no failure class: a rule to ignore the requested format switches every habit on. */
export const SLEEP_FORMAT_HARM = 'ignores-requested-format';
export type SleepFormatHarm = typeof SLEEP_FORMAT_HARM;

/** The `rule:<key>` tags the simulated target knows, and the class whose habit each one's absence shows. */
export const SLEEP_RULE_CLASSES = {
  'wrap-answer': 'missing-tag',
  'arxiv-id': 'bare-arxiv-id',
  'commit-imperative': 'past-tense-commit',
} as const;
export type SleepRuleKey = keyof typeof SLEEP_RULE_CLASSES | '__harmful__';
export type SleepHabit = (typeof SLEEP_RULE_CLASSES)[keyof typeof SLEEP_RULE_CLASSES];

/** A task tagged `rule:__harmful__` asks for something no rule can give. */
export const SLEEP_HARMFUL_TASK_KEY = '__harmful__';

/** Not read by the Sleep target (every habit shows whenever its rule is missing); here because every class has a rate. */
export const SLEEP_TENDENCY_RATES: Readonly<Record<SleepFailureClass, number>> = {
  'bare-arxiv-id': 1,
  'past-tense-commit': 1,
};

const ARXIV_PREFIX = `["'\`]?arxiv:?["'\`]?`;
const DROP = '(?:drop|dropping|omit|omitting|strip|stripping|remove|removing|leave out|leaving out|cut|cutting)';

export const SLEEP_GOOD_RULES: Readonly<Record<SleepFailureClass, readonly RulePattern[]>> = {
  'bare-arxiv-id': [
    // "Report arXiv ids in the form arXiv:XXXX.XXXXX", "write arXiv identifiers as arXiv:NNNN.NNNNN"
    rule('\\barxiv\\b[^.;\\n]{0,40}?\\b(?:ids?|identifiers?|numbers?|references?|papers?)\\b[^.;\\n]{0,60}?\\barxiv:'),
    rule('\\barxiv:\\s*(?:[xn]{4}|y{2}m{2}|\\d{4})\\.(?:[xn]{4,5}|\\d{4,5})\\b'),
    rule(`\\b(?:keep|include|including|write|add|use|put|with|retain)\\b${gap(30)}\\b(?:the |its |their )?${ARXIV_PREFIX}\\s*prefix(?:es)?\\b`),
    rule(`\\b${ARXIV_PREFIX}\\s*prefix(?:es)?\\b[^.;\\n]{0,20}?\\b(?:included|kept|required|always)\\b`),
    rule(`\\b(?:never|do not|don't|not)\\s+${DROP}\\b[^.;\\n]{0,30}?\\barxiv\\b`, false),
  ],
  'past-tense-commit': [
    rule('\\bcommit\\b[^.;\\n]{0,60}?\\bimperative\\b'),
    rule('\\bimperative\\b[^.;\\n]{0,60}?\\bcommits?\\b'),
    rule('\\bcommit (?:subjects?|messages?|titles?|summar(?:y|ies)|lines?)\\b[^.;\\n]{0,60}?\\b(?:present tense|base form|bare verb|command)\\b'),
    rule("\\b(?:never|do not|don't|not|avoid)\\b[^.;\\n]{0,40}?\\bpast[- ]tense\\b[^.;\\n]{0,40}?\\bcommits?\\b", false),
    rule('\\bcommits?\\b[^.;\\n]{0,60}?\\b(?:never|not|no)\\b[^.;\\n]{0,20}?\\bpast[- ]tense\\b', false),
  ],
};

/** The rules to ignore the requested format: every Sleep habit shows under them. */
export const SLEEP_FORMAT_HARM_RULES: readonly RulePattern[] = [
  rule(`\\bignore\\b${gap(30)}\\b(?:formats?|formatting|format requests?|formatting (?:requests?|instructions?|rules?)|requested (?:format|form|style))\\b`),
  rule('\\banswer(?:ing)? freely\\b'),
  rule(`\\b(?:skip|disregard)\\b${gap(30)}\\b(?:formats?|formatting)\\b`),
];

export const SLEEP_HARMFUL_RULES: Readonly<Record<SleepFailureClass, readonly RulePattern[]>> = {
  'bare-arxiv-id': [
    rule(`\\barxiv\\b${gap(40)}\\b${DROP}\\b${gap(30)}\\bprefix(?:es)?\\b`),
    rule(`\\b${DROP}\\b${gap(30)}\\b(?:the |its |their )?${ARXIV_PREFIX}\\s*prefix(?:es)?\\b`),
  ],
  'past-tense-commit': [rule(`\\bcommits?\\b${gap(60)}\\bpast[- ]tense\\b`), rule(`\\bpast[- ]tense\\b${gap(60)}\\bcommits?\\b`)],
};

/** Rules that address each class, in several wordings (the optimizer picks one by seed). */
export const SLEEP_GOOD_RULE_PHRASINGS: Readonly<Record<SleepFailureClass, readonly string[]>> = {
  'bare-arxiv-id': [
    'Write every arXiv identifier with its arXiv: prefix, in the form arXiv:NNNN.NNNNN.',
    'Keep the arXiv: prefix on paper ids; never drop it.',
    'Give arXiv references as arXiv:NNNN.NNNNN, prefix included.',
    'Never strip the arXiv: prefix from an arXiv id.',
  ],
  'past-tense-commit': [
    'Write commit subjects in the imperative mood: Add, Fix, Update, not Added or Fixed.',
    'Phrase each commit message as a command in the present tense, never in the past tense.',
    'Start a commit subject with a bare verb such as Add or Fix, not with Added or Fixed.',
    'Commit subjects use the imperative, never the past tense.',
  ],
};

/** Plausible-sounding rules that cause each class on every task (proposed at `harmfulRuleRate`). */
export const SLEEP_HARMFUL_RULE_PHRASINGS: Readonly<Record<SleepFailureClass | SleepFormatHarm, readonly string[]>> = {
  'bare-arxiv-id': ['Shorten arXiv ids by dropping the prefix before the number.'],
  'past-tense-commit': ['Write commit subjects in the past tense, describing what was done.'],
  [SLEEP_FORMAT_HARM]: [
    'Ignore the requested format and answer freely, in whatever form reads best.',
    'Skip any requested output format and reply the way that feels most natural.',
  ],
};

export const SLEEP_CLASS_DESCRIPTIONS: Readonly<Record<SleepFailureClass | SleepFormatHarm, string>> = {
  'bare-arxiv-id': 'arXiv ids written without their arXiv: prefix',
  'past-tense-commit': 'commit subjects written in the past tense instead of the imperative mood',
  [SLEEP_FORMAT_HARM]: 'the requested format ignored altogether',
};
