import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Environment } from '@skillopt/contract';
import {
  createSpreadsheetBenchEnvironment,
  evaluatedPosition,
  findTestCases,
  type SpreadsheetTaskItem,
  spreadsheetTaskType,
  type WorkbookAnswer,
} from '../src/index';
import { SPREADSHEETBENCH_TASKS } from '../../../testdata/paths';
import { realTaskRows, SYSTEM_PYTHON, writeSplit, writeWorkbook } from './helpers';

const root = mkdtempSync(path.join(tmpdir(), 'spreadsheetbench-loader-'));
const environments: Environment[] = [];
afterAll(async () => {
  for (const environment of environments) await environment.teardown?.();
  rmSync(root, { recursive: true, force: true });
});

function task(id: string, files: Record<string, Record<string, unknown[][]>>): string {
  const folder = path.join(root, 'spreadsheet', id);
  mkdirSync(folder, { recursive: true });
  for (const [name, sheets] of Object.entries(files)) writeWorkbook(path.join(folder, name), sheets);
  return folder;
}

const row = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  instruction: `Put the total in C1 (${id}).`,
  instruction_type: 'Cell-Level Manipulation',
  answer_position: 'C1',
  spreadsheet_path: `spreadsheet/${id}`,
  ...extra,
});

function environmentFor(splits: Parameters<typeof writeSplit>[0], extra: Record<string, unknown> = {}): Environment {
  const environment = createSpreadsheetBenchEnvironment({ split_dir: writeSplit(splits), data_root: root, python: SYSTEM_PYTHON, ...extra });
  environments.push(environment);
  return environment;
}

beforeAll(() => {
  task('v01', {
    '1_v01_input.xlsx': { Sheet1: [[1, 2]] },
    '1_v01_answer.xlsx': { Sheet1: [[1, 2, 3]] },
    '2_v01_input.xlsx': { Sheet1: [[5, 5]] },
    '2_v01_answer.xlsx': { Sheet1: [[5, 5, 10]] },
    '10_v01_input.xlsx': { Sheet1: [[7, 1]] },
    '10_v01_answer.xlsx': { Sheet1: [[7, 1, 8]] },
    '3_v01_input.xlsx': { Sheet1: [[0, 0]] },
  });
  task('verified', { '1_verified_init.xlsx': { Data: [[2, 2]] }, '1_verified_golden.xlsx': { Data: [[2, 2, 4]] } });
  task('bare', { 'initial.xlsx': { Sheet1: [[1, 1]] }, 'golden.xlsx': { Sheet1: [[1, 1, 2]] } });
  mkdirSync(path.join(root, 'spreadsheet', 'empty'), { recursive: true });
});

describe('finding test cases', () => {
  it('pairs v0.1 inputs with answers by case number, numerically, leaving out an input without its answer', async () => {
    const cases = await findTestCases(path.join(root, 'spreadsheet', 'v01'));
    expect(cases.map((testCase) => [testCase.number, path.basename(testCase.input), path.basename(testCase.answer)])).toEqual([
      ['1', '1_v01_input.xlsx', '1_v01_answer.xlsx'],
      ['2', '2_v01_input.xlsx', '2_v01_answer.xlsx'],
      ['10', '10_v01_input.xlsx', '10_v01_answer.xlsx'],
    ]);
  });

  it('reads the Verified layout (_init/_golden) and the single-case fallback (initial.xlsx/golden.xlsx)', async () => {
    expect((await findTestCases(path.join(root, 'spreadsheet', 'verified'))).map((testCase) => path.basename(testCase.answer))).toEqual([
      '1_verified_golden.xlsx',
    ]);
    expect(await findTestCases(path.join(root, 'spreadsheet', 'bare'))).toEqual([
      { number: '1', input: path.join(root, 'spreadsheet', 'bare', 'initial.xlsx'), answer: path.join(root, 'spreadsheet', 'bare', 'golden.xlsx') },
    ]);
    expect(await findTestCases(path.join(root, 'spreadsheet', 'empty'))).toEqual([]);
  });
});

describe('answer positions and task types', () => {
  it('puts a single answer_sheet in front of a bare range, and leaves a list of sheets or a sheet-qualified position alone', () => {
    expect(evaluatedPosition('A1:B3', 'Report')).toBe("'Report'!A1:B3");
    expect(evaluatedPosition("'Sheet2'!B1:B300", 'Sheet1')).toBe("'Sheet2'!B1:B300");
    expect(evaluatedPosition('A3:E11', 'Consolidated Tracker,Existing Task')).toBe('A3:E11');
    expect(evaluatedPosition('C2', undefined)).toBe('C2');
    expect([spreadsheetTaskType('Cell-Level Manipulation'), spreadsheetTaskType('Sheet-Level Manipulation'), spreadsheetTaskType('')]).toEqual([
      'cell_level',
      'sheet_level',
      'other',
    ]);
  });
});

describe('loading a split', () => {
  it('loads every layout with one reference per case: the answer cells and the cells that identify its input', async () => {
    const environment = environmentFor({ train: [row('v01'), row('verified', { answer_sheet: 'Data' }), row('bare')] });
    const items = (await environment.loadSplit('train')) as SpreadsheetTaskItem[];
    expect(items.map((item) => [item.id, item.taskType, item.cases.length, item.evaluatedPosition])).toEqual([
      ['v01', 'cell_level', 3, 'C1'],
      ['verified', 'cell_level', 1, "'Data'!C1"],
      ['bare', 'cell_level', 1, 'C1'],
    ]);
    const answers = items[0]?.references.map((reference) => JSON.parse(reference) as WorkbookAnswer);
    expect(answers?.map((answer) => [answer.format, answer.case, answer.cells])).toEqual([
      ['skillopt.workbook-answer/v1', '1', [{ sheet: 'Sheet1', cell: 'C1', value: 3 }]],
      ['skillopt.workbook-answer/v1', '2', [{ sheet: 'Sheet1', cell: 'C1', value: 10 }]],
      ['skillopt.workbook-answer/v1', '10', [{ sheet: 'Sheet1', cell: 'C1', value: 8 }]],
    ]);
    expect(answers?.map((answer) => answer.identify)).toEqual([
      [
        { sheet: 'Sheet1', cell: 'A1', value: 1 },
        { sheet: 'Sheet1', cell: 'B1', value: 2 },
      ],
      [
        { sheet: 'Sheet1', cell: 'A1', value: 5 },
        { sheet: 'Sheet1', cell: 'B1', value: 5 },
      ],
      [
        { sheet: 'Sheet1', cell: 'A1', value: 7 },
        { sheet: 'Sheet1', cell: 'B1', value: 1 },
      ],
    ]);
    expect(items[0]?.question).toBe('Put the total in C1 (v01).');
    expect(items[0]?.preview).toBe('## Sheet: Sheet1  (dimensions A1:B1, 1 rows, 2 columns)\nA1=1 | B1=2\n');
  });

  it('completes a manifest split from dataset_file, and says to set it when it is missing', async () => {
    const manifest = [{ id: 'bare', spreadsheet_path: 'spreadsheet/bare', instruction_type: 'Sheet-Level Manipulation' }];
    const datasetFile = path.join(root, 'dataset.json');
    writeFileSync(datasetFile, JSON.stringify([row('bare', { instruction_type: 'Sheet-Level Manipulation' }), row('other')]));
    const [item] = (await environmentFor({ val: manifest }, { dataset_file: datasetFile }).loadSplit('val')) as SpreadsheetTaskItem[];
    expect(item).toMatchObject({ id: 'bare', taskType: 'sheet_level', instruction: 'Put the total in C1 (bare).', answerPosition: 'C1' });
    await expect(environmentFor({ val: manifest }).loadSplit('val')).rejects.toThrow(
      /task bare has no instruction: the split looks like a manifest; set env\.dataset_file/,
    );
  });

  it('refuses a task folder outside data_root, an id that is a path, and a folder without test cases', async () => {
    await expect(environmentFor({ test: [row('up', { spreadsheet_path: '../elsewhere' })] }).loadSplit('test')).rejects.toThrow(
      /spreadsheet_path "\.\.\/elsewhere" contains a "\.\." segment/,
    );
    await expect(environmentFor({ test: [row('a/b')] }).loadSplit('test')).rejects.toThrow(/id "a\/b" contains a slash/);
    await expect(environmentFor({ test: [row('empty')] }).loadSplit('test')).rejects.toThrow(/task empty: no test case in .*spreadsheet\/empty/);
  });

  it('loads all 50 real tasks in one call of the workbook tools: 150 cases, each with its answer cells', async () => {
    const environment = createSpreadsheetBenchEnvironment({
      split_dir: writeSplit({ test: realTaskRows() }),
      data_root: SPREADSHEETBENCH_TASKS,
      python: SYSTEM_PYTHON,
    });
    environments.push(environment);
    const items = (await environment.loadSplit('test')) as SpreadsheetTaskItem[];
    expect(items).toHaveLength(50);
    expect(items.flatMap((item) => item.references)).toHaveLength(150);
    expect(new Set(items.map((item) => item.taskType))).toEqual(new Set(['cell_level', 'sheet_level']));
    for (const item of items) for (const reference of item.references) expect((JSON.parse(reference) as WorkbookAnswer).cells.length).toBeGreaterThan(0);
  });
});
