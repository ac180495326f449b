import {
  createAnswerKey,
  createSimulatedModel,
  DEFAULT_TENDENCY_RATES,
  GOOD_RULE_PHRASINGS,
  HARMFUL_RULE_PHRASINGS,
  readSkillRules,
  SPREADSHEET_FAILURE_CLASSES,
  skillFromSystemPrompt,
  type FailureClass,
} from '../src/index';
import { decideSpreadsheetBehaviour } from '../src/spreadsheet-target';
import {
  FOUR_RULE_SKILL,
  passesEveryCase,
  runScripts,
  scriptOf,
  SPREADSHEET_ENVELOPE,
  SPREADSHEET_INITIAL_SKILL,
  spreadsheetItems,
  writeScript,
  type SpreadsheetItem,
} from './spreadsheet-helpers';

const items = spreadsheetItems(40);
const key = createAnswerKey(items.map((item) => item.item));
const target = (noise = 0, seed = 3) => createSimulatedModel({ role: 'target', seed, noise, answerKey: key });

/** A forced class: every tendency off but this one, so its fault is alone in the script. */
const only = (failureClass: FailureClass) =>
  createSimulatedModel({
    role: 'target',
    seed: 3,
    answerKey: key,
    tendencyRates: Object.fromEntries(Object.keys(DEFAULT_TENDENCY_RATES).map((name) => [name, name === failureClass ? 1 : 0])),
  });
const allOff = () =>
  createSimulatedModel({
    role: 'target',
    seed: 3,
    answerKey: key,
    tendencyRates: Object.fromEntries(Object.keys(DEFAULT_TENDENCY_RATES).map((name) => [name, 0])),
  });

/** An item with numbers, a text flag and a date among its answers (items 0, 3, 6, … have the report). */
const mixed = items[0] as SpreadsheetItem;

/** What the code of each class shows. */
const FAULT_IN_CODE: Record<string, RegExp> = {
  'wrong-sheet': /sheet_name = "(?:Result|Output|Results|Answers)"/,
  'numbers-as-text': /value = "'" \+ str\(value\)/,
  'formula-not-value': /value = as_formula\(value\)[\s\S]*|return "=" \+ str\(value\)/,
  'off-by-one-range': /cell = f"\{column\}\{row \+ 1\}"/,
};

describe('the simulated target as a spreadsheet code writer', () => {
  it('writes one python block that picks each of three cases by the workbook contents and writes its values', async () => {
    const reply = await writeScript(allOff(), SPREADSHEET_INITIAL_SKILL, mixed);
    expect(reply.match(/```python/g)).toHaveLength(1);
    const script = scriptOf(reply);
    expect(script).toContain('openpyxl.load_workbook(INPUT_PATH');
    expect(script).toContain('workbook.save(OUTPUT_PATH)');
    expect(script).not.toMatch(/^\s*(?:INPUT_PATH|OUTPUT_PATH)\s*=/m);
    expect(script).toContain('datetime.datetime.fromisoformat("2024-02-15T00:00:00")');
    const results = runScripts(mixed.cases.map((spreadsheetCase) => ({ script, spreadsheetCase })));
    expect(results.map((result) => result.error)).toEqual([undefined, undefined, undefined]);
    expect(results.map((result) => result.passed)).toEqual([true, true, true]);
    // Three different inputs, three different answers, each the values of its own case.
    expect(results.map((result) => result.got)).toEqual(mixed.cases.map((spreadsheetCase) => spreadsheetCase.answers.map((cell) => cell.value)));
    expect(new Set(results.map((result) => JSON.stringify(result.got))).size).toBe(3);
  });

  it('breaks a tie of matching cells for the first case', async () => {
    const script = scriptOf(await writeScript(allOff(), SPREADSHEET_INITIAL_SKILL, mixed));
    const unknownInput = { ...(mixed.cases[2] as SpreadsheetItem['cases'][number]) };
    unknownInput.input = unknownInput.input.map((cell) => (cell.cell === 'A2' ? { ...cell, value: 'nobody' } : cell));
    const [result] = runScripts([{ script, spreadsheetCase: { ...unknownInput, answers: mixed.cases[0]?.answers ?? [] } }]);
    expect(result?.passed).toBe(true);
  });

  it('answers a script request for a task it does not know with a script that saves the workbook unchanged', async () => {
    const stranger = spreadsheetItems(41)[40] as SpreadsheetItem;
    const reply = await writeScript(target(), SPREADSHEET_INITIAL_SKILL, stranger);
    expect(reply).toMatch(/not in my simulated knowledge/);
    const [result] = runScripts([{ script: scriptOf(reply), spreadsheetCase: stranger.cases[0] as SpreadsheetItem['cases'][number] }]);
    expect(result?.error).toBeUndefined();
    expect(result?.passed).toBe(false);
    expect(result?.got.slice(0, 3)).toEqual([null, null, null]);
  });

  it.each(SPREADSHEET_FAILURE_CLASSES)('shows %s plainly in the code, and the evaluator really fails it', async (failureClass) => {
    const script = scriptOf(await writeScript(only(failureClass), SPREADSHEET_INITIAL_SKILL, mixed));
    expect(script).toMatch(FAULT_IN_CODE[failureClass] as RegExp);
    for (const other of SPREADSHEET_FAILURE_CLASSES.filter((name) => name !== failureClass)) expect(script).not.toMatch(FAULT_IN_CODE[other] as RegExp);
    const results = runScripts(mixed.cases.map((spreadsheetCase) => ({ script, spreadsheetCase })));
    expect(results.map((result) => result.error)).toEqual([undefined, undefined, undefined]);
    expect(results.map((result) => result.passed)).toEqual([false, false, false]);
    const got = results[0]?.got ?? [];
    const expected = mixed.cases[0]?.answers.map((cell) => cell.value) ?? [];
    if (failureClass === 'numbers-as-text') expect(got[0]).toBe(`'${expected[0]}`);
    if (failureClass === 'formula-not-value') expect(got).toEqual(expected.map(() => null));
    if (failureClass === 'wrong-sheet') expect(got.slice(0, 3)).toEqual([null, null, null]);
    if (failureClass === 'off-by-one-range') expect(got.slice(0, 2)).toEqual([null, expected[0]]);
  });

  it('leaves numbers-as-text out of an item whose answers hold no number', () => {
    const textOnly = items[4] as SpreadsheetItem;
    const cases = key.lookup(textOnly.item.question as string)?.workbookCases ?? [];
    const decision = decideSpreadsheetBehaviour(
      { seed: 3, noise: 0, tendencyRates: { ...DEFAULT_TENDENCY_RATES, 'numbers-as-text': 1 } },
      'text-only',
      cases,
      '',
      readSkillRules(''),
      [],
    );
    expect(cases).toHaveLength(3);
    expect(decision.active).not.toContain('numbers-as-text');
  });

  it('is deterministic: the same messages give the same reply, in any order of calls', async () => {
    const model = target(0.3);
    const first = await Promise.all(items.slice(0, 10).map((item) => writeScript(model, SPREADSHEET_INITIAL_SKILL, item)));
    const reversed = await Promise.all([...items.slice(0, 10)].reverse().map((item) => writeScript(target(0.3), SPREADSHEET_INITIAL_SKILL, item)));
    expect(reversed.reverse()).toEqual(first);
    const otherSeed = await Promise.all(items.slice(0, 10).map((item) => writeScript(target(0.3, 4), SPREADSHEET_INITIAL_SKILL, item)));
    expect(otherSeed).not.toEqual(first);
  });
});

describe('the spreadsheet rules and the pass rates', () => {
  const settings = { seed: 3, noise: 0, tendencyRates: DEFAULT_TENDENCY_RATES };
  /** The decision for the skill as the model reads it from the system prompt. */
  const decide = (item: SpreadsheetItem, skill: string, feedback: readonly string[] = []) => {
    const seen = skillFromSystemPrompt(`${SPREADSHEET_ENVELOPE}${skill}`);
    const entry = key.lookup(item.item.question as string);
    return decideSpreadsheetBehaviour(settings, entry?.normalizedQuestion ?? '', entry?.workbookCases ?? [], seen, readSkillRules(seen), feedback);
  };

  it.each(SPREADSHEET_FAILURE_CLASSES)('a good rule removes %s and a harmful rule causes it on every item', (failureClass) => {
    const affected = items.filter((item) => decide(item, SPREADSHEET_INITIAL_SKILL).active.includes(failureClass));
    expect(affected.length).toBeGreaterThan(2);
    for (const rule of GOOD_RULE_PHRASINGS[failureClass]) {
      const skill = `${SPREADSHEET_INITIAL_SKILL}\n- ${rule}\n`;
      for (const item of affected) expect(decide(item, skill).active).not.toContain(failureClass);
    }
    const harmed = `${SPREADSHEET_INITIAL_SKILL}\n- ${HARMFUL_RULE_PHRASINGS[failureClass][0]}\n`;
    const possible = items.filter((item) => failureClass !== 'numbers-as-text' || Number(item.item.id.split('-')[1]) % 5 !== 4);
    for (const item of possible) expect(decide(item, harmed).active).toContain(failureClass);
  });

  // It runs the scripts of 40 items twice in Python, which a loaded machine slows many times over:
  // the limit is there to catch a hang, not to time the scripts.
  it('passes about a quarter of 40 items with no rule and all but the noise with one good rule per class (scripts run for real)', async () => {
    const passRate = async (skill: string): Promise<number> => {
      const model = target(0.05);
      const scripts = await Promise.all(items.map(async (item) => scriptOf(await writeScript(model, skill, item))));
      const runs = items.flatMap((item, index) => item.cases.map((spreadsheetCase) => ({ script: scripts[index] as string, spreadsheetCase })));
      const results = runScripts(runs);
      expect(results.filter((result) => result.error !== undefined)).toEqual([]);
      const passed = items.filter((_, index) => results.slice(index * 3, index * 3 + 3).every((result) => result.passed)).length;
      return passed / items.length;
    };
    const initial = await passRate(SPREADSHEET_INITIAL_SKILL);
    const fourRules = await passRate(FOUR_RULE_SKILL);
    expect(initial).toBeGreaterThanOrEqual(0.15);
    expect(initial).toBeLessThanOrEqual(0.4);
    expect(fourRules).toBeGreaterThanOrEqual(0.9);
    expect(fourRules).toBeLessThan(1.01);
    // One item passes the whole check: the helper agrees with the batch run.
    expect(passesEveryCase(scriptOf(await writeScript(allOff(), FOUR_RULE_SKILL, mixed)), mixed)).toBe(true);
  }, 300_000);

  it('fixes one active class with probability one half per feedback turn, deterministically, and a reply without code changes nothing', async () => {
    const wrongCells =
      'The script ran, but 3 of 5 answer cells of the first test case are wrong:\n- Sheet1!D2: your value "\'4"\nFix the script and reply with the whole script in one ```python code block.';
    const failed = "The script failed:\nKeyError: 'Output'\nFix the script and reply with the whole script in one ```python code block.";
    const noCode = 'Your reply had no ```python code block.\nFix the script and reply with the whole script in one ```python code block.';
    const withClasses = items.filter((item) => decide(item, SPREADSHEET_INITIAL_SKILL).active.length > 0);
    const fixedOnce = withClasses.filter((item) => decide(item, SPREADSHEET_INITIAL_SKILL, [wrongCells]).fixedByFeedback.length === 1);
    expect(fixedOnce.length / withClasses.length).toBeGreaterThan(0.25);
    expect(fixedOnce.length / withClasses.length).toBeLessThan(0.75);
    const afterError = withClasses.filter((item) => decide(item, SPREADSHEET_INITIAL_SKILL, [failed]).fixedByFeedback.length === 1);
    expect(afterError.length).toBeGreaterThan(0);
    for (const item of withClasses) expect(decide(item, SPREADSHEET_INITIAL_SKILL, [noCode]).active).toEqual(decide(item, SPREADSHEET_INITIAL_SKILL).active);
    const item = fixedOnce[0] as SpreadsheetItem;
    const fixed = decide(item, SPREADSHEET_INITIAL_SKILL, [wrongCells]).fixedByFeedback[0] as FailureClass;
    const before = scriptOf(await writeScript(target(), SPREADSHEET_INITIAL_SKILL, item));
    const after = await writeScript(target(), SPREADSHEET_INITIAL_SKILL, item, [wrongCells]);
    expect(before).toMatch(FAULT_IN_CODE[fixed] as RegExp);
    expect(scriptOf(after)).not.toMatch(FAULT_IN_CODE[fixed] as RegExp);
    expect(await writeScript(target(), SPREADSHEET_INITIAL_SKILL, item, [wrongCells])).toBe(after);
  });
});
