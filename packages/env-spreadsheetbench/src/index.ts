// @skillopt/env-spreadsheetbench: spreadsheet tasks solved by a model-written Python script, run in
// a bubblewrap sandbox on every test case, or by an agent on copies of the inputs, and scored cell
// by cell against the answer workbooks.
import type { Environment, PackageManifest } from '@skillopt/contract';
import { spreadsheetBenchConfigSchema, type SpreadsheetBenchConfig, type SpreadsheetBenchConfigInput } from './config.js';
import { createSpreadsheetBenchEnvironment, SPREADSHEETBENCH_ENVIRONMENT_ID } from './environment.js';

export {
  parseSpreadsheetBenchConfig,
  SPREADSHEET_MODES,
  type SpreadsheetBenchConfig,
  type SpreadsheetBenchConfigInput,
  type SpreadsheetMode,
  spreadsheetBenchConfigSchema,
} from './config.js';
export { type CaseOutcome, type ComparedCell, evaluateWorkbooks, scoreScriptOnEveryCase, type WorkbookVerdict } from './case-scoring.js';
export { createSpreadsheetBenchEnvironment, SPREADSHEETBENCH_ENVIRONMENT_ID, SPREADSHEETBENCH_INITIAL_SKILL } from './environment.js';
export { describeEvaluation } from './evaluation-report.js';
export { extractScript } from './generated-code.js';
export {
  evaluatedPosition,
  SPREADSHEETBENCH_TASK_TYPES,
  type SpreadsheetRawItem,
  type SpreadsheetTaskItem,
  type SpreadsheetTaskType,
  type SpreadsheetTestCase,
  spreadsheetTaskType,
} from './items.js';
export { buildSystemPrompt, buildUserPrompt } from './prompt.js';
export { DEFAULT_PYTHON_CANDIDATES, findPythonInterpreter, type PythonInterpreter } from './python-interpreter.js';
export { REACT_TOOLS, splitCommandLine } from './react-tools.js';
export { findTestCases } from './test-cases.js';
export { describeCellValue, WORKBOOK_ANSWER_FORMAT, type WorkbookAnswer, type WorkbookCell, type WorkbookCellValue } from './workbook-answer.js';
export { createWorkbookRuntime, type PythonRun, type ScriptRun, type WorkbookRuntime, withoutPathAssignments } from './workbook-runtime.js';

/** What `skillopt train` reads to find, configure and check this env. */
export const manifest: PackageManifest<'env', SpreadsheetBenchConfig> = {
  kind: 'env',
  id: SPREADSHEETBENCH_ENVIRONMENT_ID,
  specificationVersion: 'v1',
  configSchema: spreadsheetBenchConfigSchema,
  description:
    'SpreadsheetBench: a model-written openpyxl script per task run in a bubblewrap sandbox on every test case, or an agent (its harness sandboxed too) saving the workbooks itself; soft = cases passed / cases, hard = all passed.',
};

/** The package's factory: `config` is the run config's `env` section. */
export function createEnvironment(config: SpreadsheetBenchConfigInput | SpreadsheetBenchConfig = {}): Environment {
  return createSpreadsheetBenchEnvironment(config);
}
