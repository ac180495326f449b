import { spawnSync } from 'node:child_process';
import type { ChatModel, TaskItem } from '@skillopt/contract';

/**
 * Spreadsheet tasks for the simulated code writer's tests: items in the workbook answer format, the
 * env's prompt shape, and a real run of the generated scripts with Debian's python3 and openpyxl
 * (not the pyenv python first on PATH), checked as the SpreadsheetBench evaluator checks them.
 */

/** Debian's interpreter, which has python3-openpyxl. */
export const SYSTEM_PYTHON = '/usr/bin/python3';

type CellValue = number | string | boolean | null | { datetime: string } | { time: string };

export interface SheetCell {
  sheet: string;
  cell: string;
  value: CellValue;
}

/** One test case: its input workbook's cells, the identifying ones, and the answer cells. */
export interface SpreadsheetCase {
  input: SheetCell[];
  identify: SheetCell[];
  answers: SheetCell[];
}

export interface SpreadsheetItem {
  item: TaskItem;
  cases: SpreadsheetCase[];
  answerPosition: string;
}

export const SPREADSHEET_ENVELOPE =
  'You are an expert in Python and openpyxl. You write scripts that carry out spreadsheet instructions exactly.\n\n# Skill\n\n';

export const SPREADSHEET_INITIAL_SKILL = '# Spreadsheet skill\n\n(No learned rules yet.)\n';

export const FOUR_RULE_SKILL = [
  '# Spreadsheet skill',
  '',
  '- Write every result into the sheet the answer position names; never create a new sheet for results.',
  '- Write numbers as numeric values (int or float), never as text or with a leading apostrophe.',
  '- Write computed values into the cells, not Excel formulas: openpyxl saves no cached result for a formula.',
  '- Write each value exactly at the cell the answer position names, with no row offset.',
  '',
].join('\n');

export function reference(index: number, spreadsheetCase: SpreadsheetCase): string {
  return JSON.stringify({ format: 'skillopt.workbook-answer/v1', case: String(index + 1), identify: spreadsheetCase.identify, cells: spreadsheetCase.answers });
}

/** The instruction, answer position and preview, as the env states a task in every mode. */
export function taskStatement(item: SpreadsheetItem): string[] {
  return [
    '# Instruction',
    '',
    item.item.question as string,
    '',
    'Instruction type: Cell-Level Manipulation',
    `Answer position: ${item.answerPosition}`,
    '',
    '# Input workbook preview',
    '',
    'A1=Name | B1=First | C1=Second | D1=Total',
  ];
}

export function userPrompt(item: SpreadsheetItem): string {
  return [
    ...taskStatement(item),
    '',
    '# Task',
    '',
    'Write one Python script that opens the workbook at INPUT_PATH, carries out the instruction and saves the whole workbook',
    'to OUTPUT_PATH. INPUT_PATH and OUTPUT_PATH are already defined. Only the standard library, openpyxl and pandas may be imported.',
    'Reply with one ```python code block.',
  ].join('\n');
}

const NAMES = ['Alice', 'Bruno', 'Chiara', 'Dmitri', 'Elif', 'Farah', 'Goran', 'Hana', 'Ivo', 'Jun'];

/**
 * `count` synthetic items of three cases each: Sheet1 holds a name in A2 (what tells the cases
 * apart) and two numbers per row; the answers are D2:D4 (their sums), and on every third item a
 * `yes`/`no` flag in Report!B2 and a date in Report!B3; every fifth item's answers are text only.
 */
export function spreadsheetItems(count: number): SpreadsheetItem[] {
  return Array.from({ length: count }, (_, itemIndex) => {
    const textOnly = itemIndex % 5 === 4;
    const cases = [0, 1, 2].map((caseIndex): SpreadsheetCase => {
      const name = `${NAMES[(itemIndex + caseIndex) % NAMES.length]} ${itemIndex}-${caseIndex}`;
      const input: SheetCell[] = [
        { sheet: 'Sheet1', cell: 'A1', value: 'Name' },
        { sheet: 'Sheet1', cell: 'A2', value: name },
      ];
      const answers: SheetCell[] = [];
      for (const row of [2, 3, 4]) {
        const first = itemIndex + caseIndex * 10 + row;
        const second = (itemIndex * 3 + caseIndex + row) % 7;
        input.push({ sheet: 'Sheet1', cell: `B${row}`, value: first }, { sheet: 'Sheet1', cell: `C${row}`, value: second });
        answers.push({ sheet: 'Sheet1', cell: `D${row}`, value: textOnly ? (first > second ? 'higher' : 'lower') : first + second + (row === 3 ? 0.25 : 0) });
      }
      if (itemIndex % 3 === 0) {
        answers.push({ sheet: 'Report', cell: 'B2', value: caseIndex === 1 ? 'yes' : 'no' });
        answers.push({ sheet: 'Report', cell: 'B3', value: { datetime: `2024-0${caseIndex + 1}-15T00:00:00` } });
      }
      return { input, identify: [{ sheet: 'Sheet1', cell: 'A2', value: name }], answers };
    });
    const item: TaskItem = {
      id: `sheet-${itemIndex}`,
      taskType: 'cell_level',
      question: `In Sheet1, write in column D the sum of columns B and C for each row of ledger ${itemIndex}, and fill in the report.`,
      references: cases.map((spreadsheetCase, index) => reference(index, spreadsheetCase)),
    };
    return { item, cases, answerPosition: "'Sheet1'!D2:D4" };
  });
}

/** The code of the reply's one ```python block. */
export function scriptOf(reply: string): string {
  const match = /```python\n([\s\S]*?)```/.exec(reply);
  if (!match) throw new Error(`no python block in: ${reply.slice(0, 200)}`);
  return match[1] as string;
}

export async function writeScript(model: ChatModel, skill: string, item: SpreadsheetItem, feedback: readonly string[] = []): Promise<string> {
  const messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }> = [
    { role: 'system', content: `${SPREADSHEET_ENVELOPE}${skill}` },
    { role: 'user', content: userPrompt(item) },
  ];
  for (const text of feedback) messages.push({ role: 'assistant', content: '```python\npass\n```' }, { role: 'user', content: text });
  return (await model.generate({ messages, purpose: 'rollout' })).text;
}

export interface ScriptRun {
  script: string;
  spreadsheetCase: SpreadsheetCase;
}

/** Python: the workbook answer format's values (`{"datetime": …}`, `{"time": …}`) to and from openpyxl's. */
export const WORKBOOK_VALUE_CODECS = `def decode(value):
    if isinstance(value, dict) and "datetime" in value:
        return datetime.datetime.fromisoformat(value["datetime"])
    if isinstance(value, dict) and "time" in value:
        return datetime.time.fromisoformat(value["time"])
    return value

def encode(value):
    if isinstance(value, datetime.datetime):
        return {"datetime": value.isoformat()}
    if isinstance(value, datetime.time):
        return {"time": value.isoformat()}
    return value
`;

export interface CaseResult {
  /** The execution error, if the script failed. */
  error?: string;
  /** Each answer cell as read back with data_only=True. */
  got: CellValue[];
  /** Whether every answer cell matched as the SpreadsheetBench evaluator compares them. */
  passed: boolean;
}

const HARNESS = `
import datetime, json, os, sys, tempfile
import openpyxl

${WORKBOOK_VALUE_CODECS}
def comparable(value):
    # As the evaluator: numbers (and numeric-looking strings) rounded to two places, "" as None.
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return round(float(value), 2)
    if isinstance(value, str):
        try:
            return round(float(value), 2)
        except ValueError:
            return None if value == "" else value
    return value

results = []
for job in json.load(sys.stdin):
    directory = tempfile.mkdtemp()
    input_path = os.path.join(directory, "input.xlsx")
    output_path = os.path.join(directory, "output.xlsx")
    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for cell in job["input"]:
        if cell["sheet"] not in workbook.sheetnames:
            workbook.create_sheet(cell["sheet"])
        workbook[cell["sheet"]][cell["cell"]] = decode(cell["value"])
    workbook.save(input_path)
    try:
        exec(compile(job["script"], "script.py", "exec"), {"INPUT_PATH": input_path, "OUTPUT_PATH": output_path, "__name__": "__main__"})
    except Exception as error:
        results.append({"error": type(error).__name__ + ": " + str(error), "got": [], "passed": False})
        continue
    values = openpyxl.load_workbook(output_path, data_only=True)
    got = [values[cell["sheet"]][cell["cell"]].value if cell["sheet"] in values.sheetnames else None for cell in job["answers"]]
    passed = all(comparable(found) == comparable(decode(cell["value"])) for found, cell in zip(got, job["answers"]))
    results.append({"got": [encode(value) for value in got], "passed": passed})
print(json.dumps(results))
`;

/** Runs each script on its case's input workbook (one python process for all) and checks the answer cells. */
export function runScripts(runs: readonly ScriptRun[]): CaseResult[] {
  const jobs = runs.map((run) => ({ script: run.script, input: run.spreadsheetCase.input, answers: run.spreadsheetCase.answers }));
  const result = spawnSync(SYSTEM_PYTHON, ['-c', HARNESS], { input: JSON.stringify(jobs), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`python failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout) as CaseResult[];
}

/** Whether the script passes every case of its item. */
export function passesEveryCase(script: string, item: SpreadsheetItem): boolean {
  return runScripts(item.cases.map((spreadsheetCase) => ({ script, spreadsheetCase }))).every((result) => result.passed);
}
