import {
  ALFWORLD_FAILURE_CLASSES,
  FAILURE_CLASSES,
  GOOD_RULE_PHRASINGS,
  HARMFUL_RULE_PHRASINGS,
  SLEEP_FAILURE_CLASSES,
  SPREADSHEET_FAILURE_CLASSES,
  USELESS_RULE_PHRASINGS,
  readSkillRules,
  type FailureClass,
  type HarmKind,
} from '../src/index';
import { GOOD_SKILL, INITIAL_SKILL } from './helpers';
import { FOUR_RULE_SKILL } from './spreadsheet-helpers';

const isAnswerClass = (failureClass: FailureClass): boolean =>
  ![...SPREADSHEET_FAILURE_CLASSES, ...ALFWORLD_FAILURE_CLASSES, ...SLEEP_FAILURE_CLASSES].includes(
    failureClass as (typeof SPREADSHEET_FAILURE_CLASSES)[number],
  );

describe('reading rules from a skill', () => {
  it('finds nothing in the initial skill', () => {
    const effects = readSkillRules(INITIAL_SKILL);
    expect([...effects.fixes]).toEqual([]);
    expect([...effects.harms]).toEqual([]);
  });

  it('recognises every phrasing the optimizer uses as a fix of exactly its class, with no harm', () => {
    for (const failureClass of FAILURE_CLASSES) {
      for (const phrasing of GOOD_RULE_PHRASINGS[failureClass]) {
        const effects = readSkillRules(`- ${phrasing}`);
        expect({ phrasing, fixes: [...effects.fixes], harms: [...effects.harms] }).toEqual({ phrasing, fixes: [failureClass], harms: [] });
      }
    }
  });

  it('recognises every harmful phrasing as a harm of its kind and as no fix', () => {
    for (const [kind, phrasings] of Object.entries(HARMFUL_RULE_PHRASINGS) as Array<[HarmKind, readonly string[]]>) {
      for (const phrasing of phrasings) {
        const effects = readSkillRules(phrasing);
        expect({ phrasing, harms: [...effects.harms], fixes: [...effects.fixes] }).toEqual({ phrasing, harms: [kind], fixes: [] });
      }
    }
  });

  it('sees nothing in useless rules', () => {
    for (const phrasing of USELESS_RULE_PHRASINGS) {
      const effects = readSkillRules(phrasing);
      expect({ phrasing, fixes: [...effects.fixes], harms: [...effects.harms] }).toEqual({ phrasing, fixes: [], harms: [] });
    }
  });

  it('recognises rewordings, other cases and markdown', () => {
    const cases: Array<[string, string]> = [
      ['**NEVER** spell out numbers.', 'number-words'],
      ['Numbers must be given in digits.', 'number-words'],
      ['use arabic numerals for counts', 'number-words'],
      ['Dates: use the month name (e.g. Month Day, Year).', 'date-format'],
      ['Do not use ISO dates.', 'date-format'],
      ['Omit the unit of measurement.', 'unit-appended'],
      ['Units should be left out of numeric answers.', 'unit-appended'],
      ['Give the family name of a person.', 'full-name'],
      ['People: last name only, no first names.', 'full-name'],
      ['Your answer MUST be wrapped in <answer> tags.', 'missing-tag'],
      ['Never omit the <answer> tag.', 'missing-tag'],
      ['Close the answer tag with </answer>.', 'malformed-tag'],
      ['Nothing else may appear inside the tag.', 'verbosity'],
      ['Do not write a sentence inside the answer tag.', 'verbosity'],
    ];
    for (const [text, failureClass] of cases) expect({ text, fixes: [...readSkillRules(text).fixes] }).toEqual({ text, fixes: [failureClass] });
  });

  it('reads negation: the same words fix or harm depending on it', () => {
    expect([...readSkillRules('Spell out numbers.').harms]).toEqual(['number-words']);
    expect([...readSkillRules('Never spell out numbers.').harms]).toEqual([]);
    expect([...readSkillRules('Give the full name of people.').harms]).toEqual(['full-name']);
    expect([...readSkillRules('Give the surname, not the full name.').harms]).toEqual([]);
    expect([...readSkillRules('Always include the unit.').harms]).toEqual(['unit-appended']);
    expect([...readSkillRules('Do not include the unit.').harms]).toEqual([]);
    expect([...readSkillRules('Do not include the unit.').fixes]).toEqual(['unit-appended']);
  });

  it('sees one fix per answer class in the good skill (no spreadsheet or ALFWorld class), and one per spreadsheet class in the four-rule skill', () => {
    const effects = readSkillRules(GOOD_SKILL);
    expect([...effects.fixes].sort()).toEqual(FAILURE_CLASSES.filter(isAnswerClass).sort());
    expect([...effects.harms]).toEqual([]);
    const spreadsheet = readSkillRules(FOUR_RULE_SKILL);
    expect([...spreadsheet.fixes].sort()).toEqual([...SPREADSHEET_FAILURE_CLASSES].sort());
    expect([...spreadsheet.harms]).toEqual([]);
  });

  it('reads the spreadsheet rules in other wordings, and their negations', () => {
    const cases: Array<[string, FailureClass[], HarmKind[]]> = [
      ['Put results in a new sheet.', [], ['wrong-sheet']],
      ['Never put results in a new sheet.', ['wrong-sheet'], []],
      ['Store numbers as text to keep formatting.', [], ['numbers-as-text']],
      ['Do not store numbers as text.', ['numbers-as-text'], []],
      ['Use Excel formulas so the workbook recalculates.', [], ['formula-not-value']],
      ['Never use Excel formulas; write values.', ['formula-not-value'], []],
      ['Leave the header row and start writing one row lower.', [], ['off-by-one-range']],
      ['Do not start one row lower than the answer position.', ['off-by-one-range'], []],
    ];
    for (const [text, fixes, harms] of cases) {
      const effects = readSkillRules(text);
      expect({ text, fixes: [...effects.fixes], harms: [...effects.harms] }).toEqual({ text, fixes, harms });
    }
  });
});
