import path from 'node:path';
import type { Environment, RolloutResult } from '@skillopt/contract';
import { createScriptedChatModel, createWorkDirectoryRolloutContextsForTests } from '@skillopt/env-kit/testing';
import { createSpreadsheetBenchEnvironment, type SpreadsheetTaskItem } from '../src/index';
import { SPREADSHEETBENCH_TASKS } from '../../../testdata/paths';
import { executionFailureReasons, realTasksConfig, TASK_39180_SOLUTION } from './helpers';

// The one thing the trusted side reads back from a script's run is its output workbook. These
// scripts solve nothing: they leave at OUTPUT_PATH something other than a workbook they wrote (a
// link to the answer workbook's host path, a second name of another file, a FIFO), which the
// evaluator would follow outside the sandbox and score as a pass. Task 39180's inputs do not hold
// its answers, so each of them must score 0, with the reason, through the real bubblewrap.
const TASK = '39180';
const ANSWERS = path.join(SPREADSHEETBENCH_TASKS, 'spreadsheet', TASK);
const NOT_A_REGULAR_FILE = 'the output is not a regular file in the work folder';

/** The lines that find which case runs (its folder is named after it) and that case's answer workbook. */
const ANSWER_OF_THIS_CASE = [
  'import os, re',
  'case = re.search(r"final-case-(\\d+)", OUTPUT_PATH).group(1)',
  `answer = os.path.join(${JSON.stringify(ANSWERS)}, case + "_${TASK}_answer.xlsx")`,
].join('\n');

let environment: Environment;
let item: SpreadsheetTaskItem;
const contexts = createWorkDirectoryRolloutContextsForTests();

beforeAll(async () => {
  environment = createSpreadsheetBenchEnvironment(realTasksConfig({ test: [TASK] }, { mode: 'single', case_timeout: 60 }));
  await environment.setup?.();
  item = ((await environment.loadSplit('test')) as SpreadsheetTaskItem[])[0] as SpreadsheetTaskItem;
});

afterAll(async () => {
  await environment.teardown?.();
  await contexts.removeAll();
});

function rollOut(code: string): Promise<RolloutResult> {
  const model = createScriptedChatModel({ reply: [`\`\`\`python\n${code}\n\`\`\``] });
  return environment.rollout(item, contexts.contextFor({ skill: '# Skill', target: { kind: 'chat', model }, itemId: item.id }));
}

/** The reasons of the three cases, each an execution failure of a rollout scored 0. */
function executionFailures(result: RolloutResult): string[] {
  expect(result).toMatchObject({ details: { sandbox: 'bubblewrap', casesPassed: 0 } });
  return executionFailureReasons(result);
}

describe('an output that is not a workbook the script wrote, through the real bubblewrap', () => {
  it('scores 0 for OUTPUT_PATH made a symbolic link to the answer workbook, absolute or relative', async () => {
    for (const link of ['answer', 'os.path.relpath(answer, os.path.dirname(OUTPUT_PATH))']) {
      const reasons = executionFailures(await rollOut(`${ANSWER_OF_THIS_CASE}\nos.symlink(${link}, OUTPUT_PATH)`));
      for (const reason of reasons) expect(reason).toContain(NOT_A_REGULAR_FILE);
      // The reason names the output, never the host path it pointed at.
      for (const reason of reasons) expect(reason).not.toContain(ANSWERS);
    }
  });

  it('scores 0 for a link to a host file the sandbox cannot see, to a device, and for a FIFO', async () => {
    for (const code of [
      'import os\nos.symlink("/etc/shadow", OUTPUT_PATH)',
      'import os\nos.symlink("/dev/zero", OUTPUT_PATH)',
      'import os\nos.mkfifo(OUTPUT_PATH)',
      'import os\nos.mkdir(OUTPUT_PATH)',
    ]) {
      for (const reason of executionFailures(await rollOut(code))) expect(reason).toContain(NOT_A_REGULAR_FILE);
    }
  });

  it('scores 0 for OUTPUT_PATH made a hard link to another file', async () => {
    // The answers are out of the sandbox's sight; the input beside the output is the file it can link.
    const reasons = executionFailures(await rollOut('import os\nos.link(INPUT_PATH, OUTPUT_PATH)'));
    for (const reason of reasons) expect(reason).toMatch(/^the output is a hard link/);
  });

  it('still scores a workbook the script wrote itself', async () => {
    expect(await rollOut(TASK_39180_SOLUTION)).toMatchObject({ status: 'scored', hard: 1, soft: 1, details: { casesPassed: 3 } });
  });
});
