import { existsSync, readdirSync } from 'node:fs';
import type { Environment, GenerateRequest, RolloutPhase, RolloutResult } from '@skillopt/contract';
import { createScriptedChatModel, createWorkDirectoryRolloutContextsForTests } from '@skillopt/env-kit/testing';
import { createSpreadsheetBenchEnvironment, type SpreadsheetBenchConfigInput, type SpreadsheetTaskItem, type WorkbookAnswer } from '../src/index';
import { realTasksConfig, TASK_39180_SOLUTION } from './helpers';

const SOLUTION = TASK_39180_SOLUTION;
const WRONG_VALUE = 'import openpyxl\nworkbook = openpyxl.load_workbook(INPUT_PATH)\nworkbook.worksheets[0]["C2"] = "wrong"\nworkbook.save(OUTPUT_PATH)';
const RAISES = 'raise ValueError("no such column")';
const fenced = (code: string) => `Here is the script.\n\n\`\`\`python\n${code}\n\`\`\`\n`;

const contexts = createWorkDirectoryRolloutContextsForTests();
const environments: Environment[] = [];
afterEach(async () => {
  await contexts.removeAll();
  for (const environment of environments.splice(0)) await environment.teardown?.();
});

async function setUp(extra: SpreadsheetBenchConfigInput): Promise<{ environment: Environment; item: SpreadsheetTaskItem }> {
  const environment = createSpreadsheetBenchEnvironment(realTasksConfig({ train: ['39180'] }, extra));
  environments.push(environment);
  const [item] = (await environment.loadSplit('train')) as SpreadsheetTaskItem[];
  return { environment, item: item as SpreadsheetTaskItem };
}

function contextFor(item: SpreadsheetTaskItem, replies: readonly string[] | ((request: GenerateRequest, index: number) => string), phase: RolloutPhase) {
  const model = createScriptedChatModel({ reply: replies });
  return { model, context: { ...contexts.contextFor({ skill: '# A skill\n\n- Write values.', target: { kind: 'chat', model }, itemId: item.id }), phase } };
}

function detailsOf(result: RolloutResult): Record<string, unknown> {
  return (result as { details?: Record<string, unknown> }).details ?? {};
}

describe('codegen rollouts on a real task', () => {
  it('loads the task with one reference per case: its answer cell and the input cells that identify the case', async () => {
    const { item } = await setUp({ mode: 'single' });
    expect(item.cases.map((testCase) => testCase.number)).toEqual(['1', '2', '3']);
    const answers = item.references.map((reference) => JSON.parse(reference) as WorkbookAnswer);
    expect(answers.map((answer) => answer.cells)).toEqual([14, 10, 5].map((value) => [{ sheet: 'Sheet1', cell: 'C2', value }]));
    expect(answers.every((answer) => answer.identify.length > 0)).toBe(true);
    expect(item.preview).toMatch(/^## Sheet: Sheet1 {2}\(dimensions A1:C\d+, \d+ rows, 3 columns\)\nA1= \| B1= \| C1=June 22\. 2023/);
  });

  it('single: one call, and a correct script passes every case (soft = hard = 1)', async () => {
    const { environment, item } = await setUp({ mode: 'single' });
    const { model, context } = contextFor(item, [fenced(SOLUTION)], 'test');
    const result = await environment.rollout(item, context);
    expect(model.calls).toHaveLength(1);
    const system = model.calls[0]?.messages[0]?.content as string;
    expect(system).toMatch(/INPUT_PATH[\s\S]*# Skill\n\n# A skill\n\n- Write values\.\n$/);
    expect(model.calls[0]?.messages[1]?.content).toMatch(
      /^# Instruction\n\nHow can I look up[\s\S]*Answer position: C2\n\n# Input workbook preview\n\n## Sheet: Sheet1/,
    );
    expect(result).toMatchObject({
      status: 'scored',
      hard: 1,
      soft: 1,
      prediction: SOLUTION,
      details: { mode: 'single', modelCalls: 1, casesPassed: 3, sandbox: 'bubblewrap' },
    });
    const turns = (result as { trajectory: { turns: Array<{ role: string; content: string }> } }).trajectory.turns;
    expect(turns.at(-1)).toEqual({
      role: 'environment',
      content: expect.stringMatching(
        /^Evaluation \(3 test cases; the final script was run on each\)\nCase 1: PASS\nCase 2: PASS\nCase 3: PASS\nResult: 3 of 3 cases passed\nCells of case 1 \(expected \| got\):\nSheet1!C2: expected 14 \| got 14 ✓/,
      ),
    });
    expect(detailsOf(result).openpyxl).toMatch(/^\d+\.\d+/);
  });

  it('scores soft as the share of cases passed, and reads a reply without a fence as the script', async () => {
    // Right only on the first case's input: a hard-coded 14.
    const { environment, item } = await setUp({ mode: 'single' });
    const hardCoded = 'import openpyxl\nworkbook = openpyxl.load_workbook(INPUT_PATH)\nworkbook.worksheets[0]["C2"] = 14\nworkbook.save(OUTPUT_PATH)';
    const result = await environment.rollout(item, contextFor(item, [hardCoded], 'test').context);
    expect(result).toMatchObject({ hard: 0, soft: 1 / 3, details: { casesPassed: 1 } });
    expect((result as { trajectory: { failureReason?: string } }).trajectory.failureReason).toBe('case 2: FAIL: Sheet1!C2: expected 10, got 14');
  });

  it('multi, training: feeds back a missing script, an error and the wrong cells (never the expected values)', async () => {
    const { environment, item } = await setUp({ mode: 'multi', max_turns: 6 });
    const { model, context } = contextFor(item, ['', fenced(RAISES), fenced(WRONG_VALUE), fenced(SOLUTION)], 'train');
    const result = await environment.rollout(item, context);
    expect(model.calls).toHaveLength(4);
    const feedback = model.calls.slice(1).map((call) => call.messages.at(-1)?.content as string);
    expect(feedback[0]).toMatch(/^Your reply had no ```python code block\./);
    expect(feedback[1]).toMatch(/^The script failed:\n\n[\s\S]*ValueError: no such column/);
    expect(feedback[2]).toBe(
      'The script ran, but 1 of 1 answer cells of the first test case are wrong:\n- Sheet1!C2: your value "wrong"\n\nFix the script and reply with the whole script in one ```python code block.',
    );
    expect(feedback.join('\n')).not.toMatch(/\b14\b/);
    expect(result).toMatchObject({ hard: 1, soft: 1, details: { mode: 'multi', modelCalls: 4, attemptsRun: 3, evaluatedOnFeedback: true } });
  });

  it('multi, evaluation: a script that runs is final, without looking at the answer', async () => {
    const { environment, item } = await setUp({ mode: 'multi', max_turns: 6 });
    const { model, context } = contextFor(item, [fenced(WRONG_VALUE), fenced(SOLUTION)], 'selection');
    const result = await environment.rollout(item, context);
    expect(model.calls).toHaveLength(1);
    expect(result).toMatchObject({ hard: 0, soft: 0, details: { modelCalls: 1, evaluatedOnFeedback: false } });
  });

  it('runs the final script afresh on every case, the first included: an earlier attempt’s output is never scored', async () => {
    // The first script writes a right output for case 1 and then fails; the last writes nothing.
    const writesThenFails = `${SOLUTION}\nraise RuntimeError("after saving")`;
    const { environment, item } = await setUp({ mode: 'multi', max_turns: 2 });
    const { context } = contextFor(item, [fenced(writesThenFails), fenced('print("nothing written")')], 'train');
    const workDirectory = await context.workDirectory();
    const result = await environment.rollout(item, context);
    expect(result).toMatchObject({ hard: 0, soft: 0 });
    expect((detailsOf(result).cases as Array<{ stage: string; reason: string }>).map((outcome) => outcome.reason)).toEqual(
      Array(3).fill('the script finished but wrote no workbook at OUTPUT_PATH'),
    );
    expect(readdirSync(workDirectory).sort()).toEqual(['attempt-1', 'attempt-2', 'final-case-1', 'final-case-2', 'final-case-3']);
    // The failed attempt's output stays in the folder it ran in, never copied out for the evaluator.
    expect(existsSync(`${workDirectory}/attempt-1/work/output.xlsx`)).toBe(true);
    expect(existsSync(`${workDirectory}/attempt-1/output.xlsx`)).toBe(false);
  });

  it('scores a task whose replies hold no code at all as a failure of the model, never running anything', async () => {
    const { environment, item } = await setUp({ mode: 'multi', max_turns: 2 });
    const result = await environment.rollout(item, contextFor(item, ['', '   '], 'train').context);
    expect(result).toMatchObject({ status: 'scored', hard: 0, soft: 0, details: { cases: [], modelCalls: 2 } });
    expect((result as { trajectory: { failureReason?: string } }).trajectory.failureReason).toMatch(/^no code/);
  });

  it('lets an error of the target propagate: it is never a score', async () => {
    const { environment, item } = await setUp({ mode: 'single' });
    const failing = contextFor(
      item,
      () => {
        throw new Error('provider down');
      },
      'test',
    );
    await expect(environment.rollout(item, failing.context)).rejects.toThrow('provider down');
  });
});
