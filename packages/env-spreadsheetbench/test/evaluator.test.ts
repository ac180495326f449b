import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createWorkbookRuntime, evaluatedPosition, findTestCases, parseSpreadsheetBenchConfig, type WorkbookRuntime, type WorkbookVerdict } from '../src/index';
import { SPREADSHEETBENCH_TASKS } from '../../../testdata/paths';
import { realTaskRows, runPythonSnippet, SYSTEM_PYTHON } from './helpers';

// The evaluator is Python (openpyxl, data_only=True) run in the sandbox, so its verdicts are
// openpyxl's by construction; these tests prove it on every case of the 50 real tasks.

interface RealCase {
  id: string;
  number: string;
  input: string;
  answer: string;
  position: string;
}

let runtime: WorkbookRuntime;
let cases: RealCase[];
const scratch = mkdtempSync(path.join(tmpdir(), 'spreadsheetbench-evaluator-'));

beforeAll(async () => {
  runtime = await createWorkbookRuntime(parseSpreadsheetBenchConfig({ split_dir: SPREADSHEETBENCH_TASKS, python: SYSTEM_PYTHON }));
  cases = [];
  for (const row of realTaskRows()) {
    const id = String(row.id);
    const position = evaluatedPosition(row.answer_position, row.answer_sheet ?? undefined);
    for (const testCase of await findTestCases(path.join(SPREADSHEETBENCH_TASKS, row.spreadsheet_path))) cases.push({ id, ...testCase, position });
  }
});

afterAll(async () => {
  await runtime.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

function evaluate(checks: ReadonlyArray<{ gold: string; prediction: string; position: string }>): Promise<WorkbookVerdict[]> {
  return runtime
    .callTool<{ results: WorkbookVerdict[] }>(
      { command: 'evaluate', checks, report_cells: 5 },
      checks.flatMap((check) => [check.gold, check.prediction]),
    )
    .then((reply) => reply.results);
}

describe('the evaluator on the 50 real SpreadsheetBench tasks', () => {
  it('finds three test cases in every task folder: 150 in all', () => {
    expect(realTaskRows()).toHaveLength(50);
    expect(cases).toHaveLength(150);
  });

  it('passes every case whose answer workbook is scored against itself', async () => {
    const verdicts = await evaluate(cases.map((testCase) => ({ gold: testCase.answer, prediction: testCase.answer, position: testCase.position })));
    const failed = verdicts.flatMap((verdict, index) => (verdict.pass ? [] : [`${cases[index]?.id}/${cases[index]?.number}: ${verdict.reason}`]));
    expect(failed).toEqual([]);
    expect(verdicts.every((verdict) => (verdict.cellCount ?? 0) > 0)).toBe(true);
  });

  it('fails a copy with one answer cell changed, naming exactly that cell', async () => {
    // One answer cell per case is changed in a values-only copy (so the other cells keep the cached values the evaluator reads).
    const mutations = JSON.parse(
      runPythonSnippet(
        [
          'import json, sys, openpyxl',
          'from openpyxl.utils import get_column_letter',
          'from openpyxl.utils.cell import range_boundaries',
          'request = json.load(sys.stdin)',
          'done = []',
          'for index, case in enumerate(request["cases"]):',
          '    workbook = openpyxl.load_workbook(case["answer"], data_only=True)',
          '    part = case["position"].split(",")[0]',
          '    sheet_name, cell_range = part.split("!", 1) if "!" in part else (workbook.sheetnames[0], part)',
          '    sheet = workbook[sheet_name.strip().strip("\'\\"").strip()]',
          '    min_column, min_row, max_column, max_row = range_boundaries(cell_range.strip().strip("\'\\""))',
          '    coordinate = "%s%d" % (get_column_letter(max_column), max_row)',
          '    value = sheet[coordinate].value',
          '    sheet[coordinate] = (value + 1) if isinstance(value, (int, float)) and not isinstance(value, bool) else "mutated"',
          '    target = "%s/mutated-%d.xlsx" % (request["folder"], index)',
          '    workbook.save(target)',
          '    done.append({"file": target, "cell": "%s!%s" % (sheet.title, coordinate)})',
          'print(json.dumps(done))',
        ].join('\n'),
        { folder: scratch, cases: cases.map((testCase) => ({ answer: testCase.answer, position: testCase.position })) },
      ),
    ) as Array<{ file: string; cell: string }>;
    const verdicts = await evaluate(
      cases.map((testCase, index) => ({ gold: testCase.answer, prediction: mutations[index]?.file as string, position: testCase.position })),
    );
    const named = verdicts.map((verdict) => verdict.mismatches.map((mismatch) => mismatch.cell));
    expect(verdicts.filter((verdict) => verdict.pass)).toHaveLength(0);
    expect(named).toEqual(mutations.map((mutation) => [mutation.cell]));
    expect(verdicts.every((verdict, index) => verdict.reason?.includes(mutations[index]?.cell as string))).toBe(true);
  });

  it('fails the unmodified input where it differs from the answer: 12 of 150 cases need no change', async () => {
    const verdicts = await evaluate(cases.map((testCase) => ({ gold: testCase.answer, prediction: testCase.input, position: testCase.position })));
    const passing = verdicts.flatMap((verdict, index) => (verdict.pass ? [`${cases[index]?.id}/${cases[index]?.number}`] : []));
    // The figures of the data's SOURCE.md: formatting-only tasks (CF_4909, 570-43, CF_8276) pass on all three cases.
    expect(passing).toHaveLength(12);
    for (const id of ['CF_4909', '570-43', 'CF_8276']) for (const number of ['1', '2', '3']) expect(passing).toContain(`${id}/${number}`);
    for (const verdict of verdicts.filter((candidate) => !candidate.pass)) {
      expect(verdict.mismatches.length).toBeGreaterThan(0);
      for (const mismatch of verdict.mismatches) {
        expect(mismatch.match).toBe(false);
        expect(mismatch.got).not.toEqual(mismatch.expected);
      }
      expect(verdict.reason).toMatch(/answer cells differ, first |worksheet not found/);
    }
  });
});
