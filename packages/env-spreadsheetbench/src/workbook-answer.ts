/** The format id of a reference: one test case's answer cells and the input cells that identify it. */
export const WORKBOOK_ANSWER_FORMAT = 'skillopt.workbook-answer/v1';

/**
 * A cell value as JSON: numbers, strings, booleans and null as they are, dates and times tagged
 * (`{"datetime": "2024-01-31T00:00:00"}`, `{"time": "12:30:00"}`).
 */
export type WorkbookCellValue = number | string | boolean | null | { datetime: string } | { time: string } | { duration_seconds: number };

export interface WorkbookCell {
  sheet: string;
  cell: string;
  value: WorkbookCellValue;
}

/**
 * One test case as a reference: the answer cells as the answer workbook holds them (in the order
 * the evaluator checks them), and up to a few input cells whose values tell this case's input
 * from the task's other cases' (empty when the inputs do not differ).
 */
export interface WorkbookAnswer {
  format: typeof WORKBOOK_ANSWER_FORMAT;
  case: string;
  identify: WorkbookCell[];
  cells: WorkbookCell[];
}

/** A cell value as the model and the analyst read it: JSON, with dates and times as their ISO text. */
export function describeCellValue(value: WorkbookCellValue | undefined): string {
  if (value === undefined || value === null) return 'empty';
  if (typeof value === 'object') return 'datetime' in value ? value.datetime : 'time' in value ? value.time : `${value.duration_seconds} s`;
  return JSON.stringify(value);
}
