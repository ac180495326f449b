import path from 'node:path';
import {
  createSpreadsheetBenchEnvironment,
  evaluateWorkbooks,
  type SpreadsheetTaskItem,
  type WorkbookRuntime,
  createWorkbookRuntime,
  parseSpreadsheetBenchConfig,
} from '../src/index';
import { SYSTEM_PYTHON } from './helpers';

// The repository's own fixture (datasets/spreadsheetbench/fixture), which configs/spreadsheetbench/default.yaml runs on.
const FIXTURE = path.resolve(__dirname, '../../../datasets/spreadsheetbench/fixture');

let runtime: WorkbookRuntime;
let items: SpreadsheetTaskItem[];
beforeAll(async () => {
  const config = { split_dir: FIXTURE, python: SYSTEM_PYTHON };
  const environment = createSpreadsheetBenchEnvironment(config);
  items = [];
  for (const split of ['train', 'val', 'test'] as const) items.push(...((await environment.loadSplit(split)) as SpreadsheetTaskItem[]));
  await environment.teardown?.();
  runtime = await createWorkbookRuntime(parseSpreadsheetBenchConfig(config));
});
afterAll(() => runtime.dispose());

describe('the fixture split of our own', () => {
  it('holds 8 tasks (4 / 2 / 2) of three cases each, in both task types', () => {
    expect(items).toHaveLength(8);
    expect(items.every((item) => item.cases.length === 3 && item.references.length === 3)).toBe(true);
    expect(new Set(items.map((item) => item.taskType))).toEqual(new Set(['cell_level', 'sheet_level']));
  });

  it('passes every answer against itself and fails every unmodified input', async () => {
    for (const item of items) {
      const ownAnswers = await evaluateWorkbooks(
        runtime,
        item,
        item.cases.map((testCase) => ({ testCase, prediction: testCase.answer })),
      );
      expect(ownAnswers.map((verdict) => verdict.pass)).toEqual([true, true, true]);
      const inputs = await evaluateWorkbooks(
        runtime,
        item,
        item.cases.map((testCase) => ({ testCase, prediction: testCase.input })),
      );
      expect(inputs.map((verdict) => verdict.pass)).toEqual([false, false, false]);
    }
  });
});
