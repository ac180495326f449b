import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { WorkspaceFile } from '@skillopt/contract';
import type { SpreadsheetTaskItem, SpreadsheetTestCase } from './items.js';

/** Where the agent finds each case's input and saves its output, relative to its workspace. */
export interface AgentCaseFiles {
  testCase: SpreadsheetTestCase;
  input: string;
  output: string;
}

/** The folder of the finished workbooks, which the env creates empty. */
export const AGENT_OUTPUT_FOLDER = 'outputs';

const INPUT_FOLDER = 'inputs';

/**
 * Each case's paths in the workspace: `inputs/<case>.xlsx` and `outputs/<case>.xlsx`, named by the
 * case number alone, so nothing of the dataset's own file names (`1_39180_answer.xlsx` lives
 * beside the input in the dataset) tells the agent where else to look.
 */
export function agentCaseFiles(item: Pick<SpreadsheetTaskItem, 'cases'>): AgentCaseFiles[] {
  return item.cases.map((testCase) => {
    const name = `${testCase.number}${path.extname(testCase.input).toLowerCase() || '.xlsx'}`;
    return { testCase, input: `${INPUT_FOLDER}/${name}`, output: `${AGENT_OUTPUT_FOLDER}/${name}` };
  });
}

/** The copies of the inputs, as workspace files beside `task.md`: the agent never sees the dataset's folder. */
export async function agentInputFiles(cases: readonly AgentCaseFiles[]): Promise<WorkspaceFile[]> {
  const files: WorkspaceFile[] = [];
  for (const entry of cases) files.push({ path: entry.input, content: new Uint8Array(await readFile(entry.testCase.input)) });
  return files;
}
