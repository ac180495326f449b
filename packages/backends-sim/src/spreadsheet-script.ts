import type { SpreadsheetFailureClass } from './spreadsheet-failure-classes.js';
import type { WorkbookCase, WorkbookCell, WorkbookValue } from './workbook-answer.js';

/**
 * The Python script the simulated target writes for a spreadsheet task: openpyxl code that tells
 * which of the task's input workbooks it was given from their contents, writes that case's answer
 * values and saves the workbook. Each active failure class is a plain line of the script's `write`
 * function, so a reader of the code sees the fault. In a reply the logic comes after the case
 * table, so a trajectory cut in its middle still shows it; an agent's script file has its functions
 * first, since an env that shows a long file shows its head.
 */

/** A value as a Python expression of the same type. */
function pythonValue(value: WorkbookValue): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value); // 5, 2.5, 1e-7, 1e+21: all Python literals too
  if (typeof value === 'string') return JSON.stringify(value);
  if ('datetime' in value) return `datetime.datetime.fromisoformat(${JSON.stringify(value.datetime)})`;
  return `datetime.time.fromisoformat(${JSON.stringify(value.time)})`;
}

function cellTuple(cell: WorkbookCell): string {
  return `(${JSON.stringify(cell.sheet)}, ${JSON.stringify(cell.cell)}, ${pythonValue(cell.value)}),`;
}

function caseTable(cases: readonly WorkbookCase[]): string[] {
  const lines = ['CASES = ['];
  cases.forEach((workbookCase, index) => {
    lines.push('    {');
    lines.push(`        "name": ${JSON.stringify(workbookCase.name === '' ? String(index + 1) : workbookCase.name)},`);
    lines.push('        "identify": [');
    for (const cell of workbookCase.identify) lines.push(`            ${cellTuple(cell)}`);
    lines.push('        ],');
    lines.push('        "answers": [');
    for (const cell of workbookCase.cells) lines.push(`            ${cellTuple(cell)}`);
    lines.push('        ],');
    lines.push('    },');
  });
  lines.push(']');
  return lines;
}

const AS_FORMULA = [
  'def as_formula(value):',
  '    if value is None:',
  '        return None',
  '    if isinstance(value, bool):',
  '        return "=TRUE" if value else "=FALSE"',
  '    if isinstance(value, datetime.datetime):',
  '        return f"=DATE({value.year},{value.month},{value.day})+TIME({value.hour},{value.minute},{value.second})"',
  '    if isinstance(value, datetime.time):',
  '        return f"=TIME({value.hour},{value.minute},{value.second})"',
  '    if isinstance(value, (int, float)):',
  '        return "=" + str(value)',
  "    return '=\"' + str(value).replace('\"', '\"\"') + '\"'",
];

const MATCHING = [
  'def same(found, expected):',
  '    numbers = (int, float)',
  '    if isinstance(found, numbers) and isinstance(expected, numbers) and not isinstance(found, bool) and not isinstance(expected, bool):',
  '        return round(float(found), 2) == round(float(expected), 2)',
  '    return found == expected',
  '',
  '',
  'def matches(case, values):',
  '    count = 0',
  '    for sheet_name, cell, expected in case["identify"]:',
  '        if sheet_name in values.sheetnames and same(values[sheet_name][cell].value, expected):',
  '            count += 1',
  '    return (count == len(case["identify"]), count)',
];

export interface SpreadsheetScriptOptions {
  cases: readonly WorkbookCase[];
  active: readonly SpreadsheetFailureClass[];
  /** The sheet a `wrong-sheet` script writes to (one the answers do not use). */
  resultSheet: string;
  /**
   * Where INPUT_PATH and OUTPUT_PATH come from: `defined` (the chat env defines them before running
   * the code) or `command-line` (an agent's script file, run as `python3 solve.py <input> <output>`;
   * it creates the output's folder when missing). Default `defined`.
   */
  paths?: 'defined' | 'command-line';
}

function writeFunction(options: SpreadsheetScriptOptions): string[] {
  const { active } = options;
  const lines = ['def write(workbook, sheet_name, cell, value):'];
  if (active.includes('wrong-sheet')) {
    lines.push('    # Results go on a sheet of their own, so the input sheets stay as they were.');
    lines.push(`    sheet_name = ${JSON.stringify(options.resultSheet)}`);
  }
  if (active.includes('numbers-as-text')) {
    lines.push('    if isinstance(value, (int, float)) and not isinstance(value, bool):');
    lines.push('        value = "\'" + str(value)  # stored as text, so the number keeps its look');
  }
  if (active.includes('formula-not-value')) lines.push('    value = as_formula(value)  # a formula, so the workbook recalculates');
  if (active.includes('off-by-one-range')) {
    lines.push('    column, row = coordinate_from_string(cell)');
    lines.push('    cell = f"{column}{row + 1}"  # the header row stays as it is: values start one row lower');
  }
  lines.push('    if sheet_name not in workbook.sheetnames:');
  lines.push('        workbook.create_sheet(sheet_name)');
  lines.push('    workbook[sheet_name][cell] = value');
  return lines;
}

/** The whole script, ending in a newline. */
export function renderSpreadsheetScript(options: SpreadsheetScriptOptions): string {
  const fromCommandLine = options.paths === 'command-line';
  const imports = fromCommandLine ? ['import datetime', 'import os', 'import sys', '', 'import openpyxl'] : ['import datetime', '', 'import openpyxl'];
  if (options.active.includes('off-by-one-range')) imports.push('from openpyxl.utils.cell import coordinate_from_string');
  if (fromCommandLine) imports.push('', 'INPUT_PATH, OUTPUT_PATH = sys.argv[1], sys.argv[2]');
  const functions = [...MATCHING, '', ''];
  if (options.active.includes('formula-not-value')) functions.push(...AS_FORMULA, '', '');
  functions.push(...writeFunction(options));
  const table = ['# The input workbooks this task comes with: the cells that tell each one apart, and its answers.', ...caseTable(options.cases)];
  return [
    '# Written by the SkillOpt simulated model: the answers come from its SIMULATED KNOWLEDGE of this task.',
    ...imports,
    '',
    ...(fromCommandLine ? ['', ...functions, '', '', ...table] : [...table, '', '', ...functions]),
    '',
    '',
    'values = openpyxl.load_workbook(INPUT_PATH, data_only=True)',
    '# The case whose identifying cells all match, else the one matching the most; max keeps the first of equals.',
    'case = max(CASES, key=lambda candidate: matches(candidate, values), default={"answers": []})',
    'workbook = openpyxl.load_workbook(INPUT_PATH)',
    'for sheet_name, cell, value in case["answers"]:',
    '    write(workbook, sheet_name, cell, value)',
    ...(fromCommandLine ? ['os.makedirs(os.path.dirname(OUTPUT_PATH) or ".", exist_ok=True)'] : []),
    'workbook.save(OUTPUT_PATH)',
    '',
  ].join('\n');
}
