/**
 * The workbook answer format a spreadsheet env gives as each test case's reference: the answer
 * cells of the case, and the input cells that tell the case from the task's others.
 */
export const WORKBOOK_ANSWER_FORMAT = 'skillopt.workbook-answer/v1';

/** A cell value as the format encodes it: a JSON scalar, or a date-time or time of day in ISO form. */
export type WorkbookValue = number | string | boolean | null | { datetime: string } | { time: string };

export interface WorkbookCell {
  sheet: string;
  cell: string;
  value: WorkbookValue;
}

export interface WorkbookCase {
  /** The case's name in the task (`"1"`, `"2"`, …). */
  name: string;
  /** Cells of the case's input workbook whose values tell it from the other cases (may be empty). */
  identify: WorkbookCell[];
  /** The answer cells, in the order the evaluator checks them. */
  cells: WorkbookCell[];
}

const CELL_ADDRESS = /^\$?[A-Za-z]{1,3}\$?[1-9]\d*$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readValue(value: unknown): WorkbookValue | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (isRecord(value) && typeof value.datetime === 'string') return { datetime: value.datetime };
  if (isRecord(value) && typeof value.time === 'string') return { time: value.time };
  return undefined;
}

function readCells(value: unknown): WorkbookCell[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const cells: WorkbookCell[] = [];
  for (const entry of value) {
    if (!isRecord(entry) || typeof entry.sheet !== 'string' || typeof entry.cell !== 'string' || !CELL_ADDRESS.test(entry.cell)) return undefined;
    const cellValue = readValue(entry.value);
    if (cellValue === undefined) return undefined;
    cells.push({ sheet: entry.sheet, cell: entry.cell.replace(/\$/g, '').toUpperCase(), value: cellValue });
  }
  return cells;
}

/** One reference read as a case of the workbook answer format, or undefined when it is not one. */
function readWorkbookCase(reference: string): WorkbookCase | undefined {
  if (!reference.includes(WORKBOOK_ANSWER_FORMAT)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(reference);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || parsed.format !== WORKBOOK_ANSWER_FORMAT) return undefined;
  const cells = readCells(parsed.cells);
  const identify = parsed.identify === undefined ? [] : readCells(parsed.identify);
  if (cells === undefined || identify === undefined) return undefined;
  return { name: typeof parsed.case === 'string' || typeof parsed.case === 'number' ? String(parsed.case) : '', identify, cells };
}

/** Every reference read as a case, or undefined unless all of them are in the format. */
export function readWorkbookCases(references: readonly string[]): WorkbookCase[] | undefined {
  const cases = references.map(readWorkbookCase);
  if (cases.length === 0 || cases.some((found) => found === undefined)) return undefined;
  return cases as WorkbookCase[];
}
