import { gap, rule, type RulePattern } from './rule-patterns.js';

/**
 * The procedural failures of the simulated target as a spreadsheet code writer. Each is one the
 * SpreadsheetBench evaluator really detects: it reads the answer cells' cached values
 * (openpyxl `data_only=True`) and compares numbers after rounding to two places, so a
 * numeric-looking string alone would still pass; these do not.
 */
export const SPREADSHEET_FAILURE_CLASSES = [
  /** The values go into a new sheet (`Result`) instead of the answer position's sheet. */
  'wrong-sheet',
  /** Numbers written as text the way Excel forces text, with a leading apostrophe (`"'5"`). */
  'numbers-as-text',
  /** A formula instead of its value (`"=5"`): openpyxl saves no cached value, so the evaluator reads None. */
  'formula-not-value',
  /** Every value written one row below its cell. */
  'off-by-one-range',
] as const;
export type SpreadsheetFailureClass = (typeof SPREADSHEET_FAILURE_CLASSES)[number];

/**
 * How often a spreadsheet item carries each tendency. Calibrated so that a skill without rules
 * passes roughly a quarter of a set (0.75 × 0.7 × 0.7 × 0.75 ≈ 0.28, less the noise).
 */
export const SPREADSHEET_TENDENCY_RATES: Readonly<Record<SpreadsheetFailureClass, number>> = {
  'wrong-sheet': 0.25,
  'numbers-as-text': 0.3,
  'formula-not-value': 0.3,
  'off-by-one-range': 0.25,
};

const NEGATION_WORD = "(?:never|not|no|don't|do not|avoid|without|rather than|instead of)";

export const SPREADSHEET_GOOD_RULES: Readonly<Record<SpreadsheetFailureClass, readonly RulePattern[]>> = {
  'wrong-sheet': [
    rule(`\\b${NEGATION_WORD}\\b[^.;\\n]{0,40}?\\b(?:new|separate|extra|additional|result|results|output|own) (?:sheet|worksheet|tab)s?\\b`, false),
    rule(`\\b${NEGATION_WORD}\\b[^.;\\n]{0,40}?\\b(?:a |an )?(?:sheet|worksheet|tab)s? of (?:its|their) own\\b`, false),
    rule('\\b(?:sheet|worksheet)s?\\b[^.;\\n]{0,40}?\\b(?:the )?answer (?:position|range)\\b'),
    rule("\\banswer (?:position|range)(?:'s)?\\b[^.;\\n]{0,30}?\\b(?:own |same |existing )?(?:sheet|worksheet)\\b"),
    rule('\\b(?:existing|original|same|target) (?:sheet|worksheet)\\b'),
  ],
  'numbers-as-text': [
    rule(
      `\\b(?:numbers?|numeric (?:values?|results?))\\b[^.;\\n]{0,60}?\\b${NEGATION_WORD}\\b[^.;\\n]{0,25}?\\b(?:as )?(?:text|strings?|apostrophes?)\\b`,
      false,
    ),
    rule(
      "\\b(?:never|do not|don't|avoid|no)\\b[^.;\\n]{0,20}?\\b(?:convert|converting|turn|turning|write|writing|store|storing|save|saving)\\b[^.;\\n]{0,20}?\\bnumbers?\\b[^.;\\n]{0,20}?\\b(?:to|as|into) (?:text|strings?)\\b",
      false,
    ),
    rule('\\b(?:numbers?|numeric (?:values?|results?))\\b[^.;\\n]{0,30}?\\b(?:as|real|actual) (?:numbers?|numeric values?|ints?|floats?)\\b'),
    rule(`\\b${NEGATION_WORD}\\b[^.;\\n]{0,30}?\\b(?:apostrophe|str\\(\\))`, false),
  ],
  'formula-not-value': [
    rule(`\\b${NEGATION_WORD}\\b[^.;\\n]{0,40}?\\b(?:excel |spreadsheet )?formulas?\\b`, false),
    rule('\\b(?:literal|computed|final|cached) values?\\b'),
    rule('\\bvalues?\\b[^.;\\n]{0,30}?\\b(?:rather than|instead of|not)\\b[^.;\\n]{0,20}?\\bformulas?\\b', false),
  ],
  'off-by-one-range': [
    rule(
      `\\b${NEGATION_WORD}\\b[^.;\\n]{0,30}?\\b(?:row (?:offsets?|shifts?)|offsets?|shift(?:ing|s)?(?: (?:the )?rows?)?|one row (?:below|lower|down|further))\\b`,
      false,
    ),
    rule("\\b(?:never|do not|don't)\\b[^.;\\n]{0,20}?\\badd(?:ing)? (?:one|1)\\b[^.;\\n]{0,20}?\\brows?\\b", false),
    rule('\\b(?:start|begin)\\b[^.;\\n]{0,30}?\\b(?:at|in|on|with)\\b[^.;\\n]{0,20}?\\b(?:the |its )?first (?:row|cell)\\b'),
    rule('\\bexactly (?:at|in|into) the cells?\\b'),
  ],
};

export const SPREADSHEET_HARMFUL_RULES: Readonly<Record<SpreadsheetFailureClass, readonly RulePattern[]>> = {
  'wrong-sheet': [
    rule(
      `\\b(?:put|write|place|store|save|keep|output)\\b${gap(30)}\\b(?:results?|answers?|values?|outputs?)\\b${gap(30)}\\b(?:in|into|on|to)\\b${gap(10)}\\b(?:a |an )?(?:new|separate|dedicated|fresh) (?:sheet|worksheet|tab)\\b`,
    ),
    rule(`\\b(?:create|add|make)\\b${gap(20)}\\b(?:a |an )?(?:new|separate|dedicated) (?:sheet|worksheet|tab)\\b`),
  ],
  'numbers-as-text': [
    rule(`\\b(?:store|write|save|keep|put|enter)\\b${gap(20)}\\bnumbers?\\b${gap(20)}\\bas (?:text|strings?)\\b`),
    rule(`\\b(?:prefix|precede|start)\\b${gap(30)}\\b(?:numbers?|values?)\\b${gap(20)}\\b(?:with )?(?:an? )?(?:leading )?apostrophe\\b`),
  ],
  'formula-not-value': [
    rule(`\\b(?:use|write|put|enter|insert|keep)\\b${gap(30)}\\b(?:excel |spreadsheet )?formulas?\\b`),
    rule('\\bso (?:that )?the (?:workbook|sheet|spreadsheet) recalculates\\b'),
  ],
  'off-by-one-range': [
    rule(`\\b(?:leave|skip|keep)\\b${gap(20)}\\b(?:the )?header(?: row)?\\b`),
    rule(`\\b(?:start|begin)\\b${gap(20)}\\b(?:writing )?(?:one|a) row (?:lower|below|down|further down)\\b`),
    rule(`\\b(?:shift|move|offset)\\b${gap(20)}\\b(?:everything|values?|results?|rows?|output)\\b${gap(20)}\\b(?:down|one row)\\b`),
  ],
};

/** Rules that address each class, in several wordings (the optimizer picks one by seed). */
export const SPREADSHEET_GOOD_RULE_PHRASINGS: Readonly<Record<SpreadsheetFailureClass, readonly string[]>> = {
  'wrong-sheet': [
    'Write every result into the sheet the answer position names; never create a new sheet for results.',
    "Put the values in the answer position's own sheet, not in a new or separate sheet.",
    'Do not add a result sheet: write into the existing sheet named in the answer position.',
    'Keep results on the sheet given in the answer position, never on a sheet of their own.',
  ],
  'numbers-as-text': [
    'Write numbers as numeric values (int or float), never as text or with a leading apostrophe.',
    'Store numeric results as real numbers, not as strings: no apostrophe prefix.',
    'Never convert numbers to strings before writing them into a cell.',
    'Keep every number a number in its cell, never text, so the checker can compare it.',
  ],
  'formula-not-value': [
    'Write computed values into the cells, not Excel formulas: openpyxl saves no cached result for a formula.',
    'Never write a formula string starting with =; put the final value itself in each answer cell.',
    'Compute results in Python and store the values rather than formulas the checker cannot read.',
    'Do not leave formulas in answer cells: write the literal value.',
  ],
  'off-by-one-range': [
    'Write each value exactly at the cell the answer position names, with no row offset.',
    'Do not shift rows: the answer position already leaves out the header, so start at its first cell.',
    'Map answers to cells exactly as the answer position gives them; never add one to the row number.',
    'Start at the first row of the answer position itself, not one row below it.',
  ],
};

/** Plausible-sounding rules that cause each class on every item (proposed at `harmfulRuleRate`). */
export const SPREADSHEET_HARMFUL_RULE_PHRASINGS: Readonly<Record<SpreadsheetFailureClass, readonly string[]>> = {
  'wrong-sheet': ['Put results in a new sheet so the input data stays untouched.'],
  'numbers-as-text': ['Store numbers as text to keep their formatting exactly as displayed.'],
  'formula-not-value': ['Use Excel formulas such as =SUM so the workbook recalculates when its inputs change.'],
  'off-by-one-range': ['Leave the header row alone and start writing one row lower.'],
};

export const SPREADSHEET_CLASS_DESCRIPTIONS: Readonly<Record<SpreadsheetFailureClass, string>> = {
  'wrong-sheet': "results written into a new sheet instead of the answer position's sheet",
  'numbers-as-text': 'numbers written as text with a leading apostrophe, which the checker does not read as numbers',
  'formula-not-value': 'formulas written instead of values, so the answer cells have no cached value',
  'off-by-one-range': 'every value written one row below its answer cell',
};
