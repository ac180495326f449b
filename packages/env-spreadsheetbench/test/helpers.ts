import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RolloutResult } from '@skillopt/contract';
import { SPREADSHEETBENCH_TASKS } from '../../../testdata/paths';
import { parseSpreadsheetBenchConfig, type SpreadsheetBenchConfig, type SpreadsheetBenchConfigInput } from '../src/index';

/** Debian's system Python, which has openpyxl and pandas (python3-openpyxl, python3-pandas). */
export const SYSTEM_PYTHON = '/usr/bin/python3';

export interface RealTaskRow {
  id: string | number;
  instruction: string;
  instruction_type: string;
  answer_position: string;
  answer_sheet?: string | null;
  spreadsheet_path: string;
}

export function realTaskRows(): RealTaskRow[] {
  return JSON.parse(readFileSync(path.join(SPREADSHEETBENCH_TASKS, 'dataset_50.json'), 'utf8')) as RealTaskRow[];
}

/** A split folder in the temp directory holding the given rows per split (the tasks' files stay in the repository's test data). */
export function writeSplit(splits: Partial<Record<'train' | 'val' | 'test', readonly unknown[]>>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'spreadsheetbench-split-'));
  for (const name of ['train', 'val', 'test'] as const) {
    mkdirSync(path.join(root, name));
    writeFileSync(path.join(root, name, 'items.json'), JSON.stringify(splits[name] ?? []));
  }
  return root;
}

/** The config of a split of real tasks picked by id. */
export function realTasksConfig(
  ids: Partial<Record<'train' | 'val' | 'test', readonly string[]>>,
  extra: SpreadsheetBenchConfigInput = {},
): SpreadsheetBenchConfig {
  const rows = realTaskRows();
  const pick = (wanted: readonly string[] = []) => wanted.map((id) => rows.find((row) => String(row.id) === id) as RealTaskRow);
  const splitDirectory = writeSplit({ train: pick(ids.train), val: pick(ids.val), test: pick(ids.test) });
  return parseSpreadsheetBenchConfig({ split_dir: splitDirectory, data_root: SPREADSHEETBENCH_TASKS, python: SYSTEM_PYTHON, ...extra });
}

/** Runs a Python snippet with the system Python (test set-up on our own files, not generated code). */
export function runPythonSnippet(code: string, input?: unknown): string {
  return execFileSync(SYSTEM_PYTHON, ['-c', code], { input: input === undefined ? '' : JSON.stringify(input), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/**
 * Writes a workbook from a description: `{sheets: {Sheet1: [["Name", "Score"], ["Ada", 3]]}}`,
 * rows from A1; strings starting with `=` are formulas (without cached values, as openpyxl writes them).
 */
export function writeWorkbook(file: string, sheets: Record<string, unknown[][]>): void {
  runPythonSnippet(
    [
      'import json, sys, openpyxl',
      'spec = json.load(sys.stdin)',
      'workbook = openpyxl.Workbook()',
      'workbook.remove(workbook.active)',
      'for name, rows in spec["sheets"].items():',
      '    sheet = workbook.create_sheet(name)',
      '    for row in rows:',
      '        sheet.append(row)',
      'workbook.save(spec["file"])',
    ].join('\n'),
    { file, sheets },
  );
}

/**
 * A correct script for real task 39180 ("sum the column B values of the names column C lists, into
 * C2"), whose three cases have other inputs and answers (14, 10, 5).
 */
export const TASK_39180_SOLUTION = [
  'import openpyxl',
  'workbook = openpyxl.load_workbook(INPUT_PATH)',
  'sheet = workbook.worksheets[0]',
  'rows = range(3, sheet.max_row + 1)',
  'names = {sheet.cell(row, 3).value for row in rows if sheet.cell(row, 3).value not in (None, "")}',
  'sheet["C2"] = sum(sheet.cell(row, 2).value for row in rows if sheet.cell(row, 1).value in names)',
  'workbook.save(OUTPUT_PATH)',
].join('\n');

/** The reasons of a rollout's three cases, each an execution failure, the rollout scored 0. */
export function executionFailureReasons(result: RolloutResult): string[] {
  expect(result).toMatchObject({ status: 'scored', hard: 0, soft: 0 });
  const cases = (result as { details?: { cases?: Array<{ stage: string; pass: boolean; reason?: string }> } }).details?.cases ?? [];
  expect(cases).toHaveLength(3);
  for (const outcome of cases) expect(outcome).toMatchObject({ stage: 'exec', pass: false });
  return cases.map((outcome) => outcome.reason ?? '');
}
