import path from 'node:path';
import { createDataInvalidError, readRawItemsFile } from '@skillopt/env-kit';
import { evaluatedPosition, type SpreadsheetRawItem, spreadsheetRawItemSchema, type SpreadsheetTaskItem, type SpreadsheetTaskRow } from './items.js';
import { findTestCases } from './test-cases.js';
import { WORKBOOK_ANSWER_FORMAT, type WorkbookAnswer, type WorkbookCell } from './workbook-answer.js';
import type { WorkbookRuntime } from './workbook-runtime.js';

/** How many input cells a reference keeps to tell its case from the others. */
const IDENTIFYING_CELLS = 8;

interface DescribedTask {
  cases: Array<{ cells: WorkbookCell[]; identify: WorkbookCell[] }>;
  preview: string;
}

/** The benchmark's task rows by id, from `dataset_file`, for splits that are manifests. */
export async function readDatasetRows(datasetFile: string): Promise<Map<string, SpreadsheetRawItem>> {
  const rows = new Map<string, SpreadsheetRawItem>();
  for (const raw of await readRawItemsFile(datasetFile)) {
    const parsed = spreadsheetRawItemSchema.safeParse(raw.value);
    if (parsed.success) rows.set(parsed.data.id.trim(), parsed.data);
  }
  return rows;
}

function definedFields(raw: SpreadsheetRawItem): Partial<SpreadsheetRawItem> {
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined && value !== null));
}

/**
 * Turns split rows into tasks: fields a manifest row lacks come from the dataset row of the same
 * id; the task folder (inside `dataRoot`) must hold at least one test case; and one sandboxed call
 * of the workbook tools reads every case's answer cells and the first input's preview.
 */
export async function loadSpreadsheetTasks(
  rows: readonly SpreadsheetTaskRow[],
  options: { dataRoot: string; datasetRows?: ReadonlyMap<string, SpreadsheetRawItem> | undefined; runtime: WorkbookRuntime },
): Promise<SpreadsheetTaskItem[]> {
  const root = path.resolve(options.dataRoot);
  const pending = [];
  for (const row of rows) {
    const raw = { ...(options.datasetRows?.get(row.id) ?? {}), ...definedFields(row.raw) } as SpreadsheetRawItem;
    if (raw.instruction === undefined || raw.answer_position === undefined) {
      throw createDataInvalidError(
        `spreadsheetbench task ${row.id} has no ${raw.instruction === undefined ? 'instruction' : 'answer_position'}${options.datasetRows === undefined ? ': the split looks like a manifest; set env.dataset_file to the benchmark task file that holds its rows' : ` in the split or in dataset_file`}`,
        { id: row.id },
      );
    }
    const directory = path.resolve(root, raw.spreadsheet_path ?? `spreadsheet/${row.id}`);
    if (directory !== root && !directory.startsWith(`${root}${path.sep}`))
      throw createDataInvalidError(`spreadsheetbench task ${row.id}: spreadsheet_path leaves data_root`, { id: row.id });
    const cases = await findTestCases(directory);
    if (cases.length === 0)
      throw createDataInvalidError(
        `spreadsheetbench task ${row.id}: no test case in ${directory} (expected N_<id>_input.xlsx with N_<id>_answer.xlsx, _init/_golden, or initial.xlsx with golden.xlsx)`,
        { id: row.id, directory },
      );
    pending.push({ row, raw, directory, cases, position: evaluatedPosition(String(raw.answer_position), raw.answer_sheet ?? undefined) });
  }
  if (pending.length === 0) return [];
  const reply = await options.runtime.callTool<{ tasks: DescribedTask[] }>(
    {
      command: 'describe',
      identify: IDENTIFYING_CELLS,
      tasks: pending.map((task) => ({ position: task.position, cases: task.cases.map((testCase) => ({ input: testCase.input, answer: testCase.answer })) })),
    },
    pending.flatMap((task) => task.cases.flatMap((testCase) => [testCase.input, testCase.answer])),
  );
  return pending.map((task, index): SpreadsheetTaskItem => {
    const described = reply.tasks[index] as DescribedTask;
    const references = task.cases.map((testCase, caseIndex) => {
      const answer: WorkbookAnswer = {
        format: WORKBOOK_ANSWER_FORMAT,
        case: testCase.number,
        identify: described.cases[caseIndex]?.identify ?? [],
        cells: described.cases[caseIndex]?.cells ?? [],
      };
      return JSON.stringify(answer);
    });
    return {
      id: task.row.id,
      taskType: task.row.taskType,
      question: task.raw.instruction as string,
      references,
      instruction: task.raw.instruction as string,
      instructionType: task.raw.instruction_type ?? '',
      answerPosition: String(task.raw.answer_position),
      evaluatedPosition: task.position,
      directory: task.directory,
      cases: task.cases,
      preview: described.preview,
    };
  });
}
