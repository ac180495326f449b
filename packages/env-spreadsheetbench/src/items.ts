import path from 'node:path';
import type { TaskItem } from '@skillopt/contract';
import { z } from 'zod';

/** SpreadsheetBench's two instruction types, and the type of a task that names neither. */
export const SPREADSHEETBENCH_TASK_TYPES = ['cell_level', 'sheet_level', 'other'] as const;
export type SpreadsheetTaskType = (typeof SPREADSHEETBENCH_TASK_TYPES)[number];

/** `cell_level` for "Cell-Level Manipulation", `sheet_level` for "Sheet-Level Manipulation". */
export function spreadsheetTaskType(instructionType: string): SpreadsheetTaskType {
  const lower = instructionType.toLowerCase();
  if (lower.includes('cell')) return 'cell_level';
  if (lower.includes('sheet')) return 'sheet_level';
  return 'other';
}

/**
 * The position the evaluator checks. The original puts `answer_sheet` in front of a position that
 * names no sheet; we do that only when `answer_sheet` names one sheet: a list of sheets
 * ("Tracker,Existing Task") in front of a bare range would make an unreadable position, so the
 * range stays on the first sheet, as the official evaluator reads a bare range.
 */
export function evaluatedPosition(answerPosition: string, answerSheet: string | undefined): string {
  if (answerSheet === undefined || answerSheet.trim() === '' || answerPosition.includes('!') || answerSheet.includes(',')) return answerPosition;
  return `'${answerSheet.trim()}'!${answerPosition}`;
}

/** Why a task id or spreadsheet path cannot be used as a path, or undefined when it is fine. */
function taskPathProblem(value: string): string | undefined {
  if (value.includes('\0')) return 'contains a NUL character';
  if (value.includes('\\')) return 'contains a backslash';
  if (path.posix.isAbsolute(value) || /^[a-zA-Z]:/.test(value)) return 'is an absolute path';
  if (value.split('/').some((segment) => segment === '..')) return 'contains a ".." segment';
  return undefined;
}

const text = z.union([z.string(), z.number().transform(String)]);

/**
 * One task as the benchmark's JSON has it: `{id, instruction, instruction_type, answer_position,
 * answer_sheet?, spreadsheet_path?, data_position?}`. A split may hold only the manifest fields
 * (`id`, `spreadsheet_path`, `instruction_type`): the rest then comes from `dataset_file`.
 */
export const spreadsheetRawItemSchema = z.object({
  id: text,
  instruction: z.string().optional(),
  instruction_type: z.string().optional(),
  answer_position: text.optional(),
  answer_sheet: z.string().nullish(),
  spreadsheet_path: z.string().optional(),
  data_position: z.string().nullish(),
});
export type SpreadsheetRawItem = z.output<typeof spreadsheetRawItemSchema>;

/** A task as the split lists it, before its test cases are found on disk. */
export interface SpreadsheetTaskRow extends TaskItem {
  taskType: SpreadsheetTaskType;
  raw: SpreadsheetRawItem;
}

/** One test case: an input workbook and the answer workbook it should become. */
export interface SpreadsheetTestCase {
  /** The case number, from the file name's prefix (`2` of `2_123_input.xlsx`). */
  number: string;
  input: string;
  answer: string;
}

/**
 * A loaded task. `references` holds one text per case in the workbook answer format (see
 * `workbookAnswerReference`): its answer cells, and the input cells that tell its input from the
 * other cases' — what a reader of the answer workbooks knows, and what a simulated model keys on.
 */
export interface SpreadsheetTaskItem extends TaskItem {
  taskType: SpreadsheetTaskType;
  question: string;
  references: string[];
  instruction: string;
  instructionType: string;
  /** The position as the task states it (shown to the model). */
  answerPosition: string;
  /** The position the evaluator checks (with `answer_sheet` applied). */
  evaluatedPosition: string;
  /** The task's folder: absolute. */
  directory: string;
  cases: SpreadsheetTestCase[];
  /** The first case's input as the model is shown it: per sheet its size and first rows, formulas as written. */
  preview: string;
}

/** The split file's mapper: checks the fields and the path-safety of the id and spreadsheet path. */
export function spreadsheetRowMapper(value: unknown): SpreadsheetTaskRow {
  const raw = spreadsheetRawItemSchema.parse(value);
  const id = raw.id.trim();
  if (id === '') throw new Error('the id is blank');
  for (const [field, fieldValue] of [
    ['id', id],
    ['spreadsheet_path', raw.spreadsheet_path],
  ] as const) {
    const problem = fieldValue === undefined ? undefined : taskPathProblem(fieldValue);
    if (problem !== undefined) throw new Error(`${field} ${JSON.stringify(fieldValue)} ${problem}`);
  }
  if (id.includes('/')) throw new Error(`id ${JSON.stringify(id)} contains a slash`);
  return { id, taskType: spreadsheetTaskType(raw.instruction_type ?? ''), raw: { ...raw, id } };
}
