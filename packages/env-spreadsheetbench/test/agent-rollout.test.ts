import { execFileSync } from 'node:child_process';
import { copyFileSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AgentRunRequest, ERROR_CODES, ProviderError, type Environment, type RolloutResult } from '@skillopt/contract';
import { createScriptedAgentRunner, createWorkDirectoryRolloutContextsForTests } from '@skillopt/env-kit/testing';
import { createSpreadsheetBenchEnvironment, type SpreadsheetBenchConfigInput, type SpreadsheetTaskItem } from '../src/index';
import { realTasksConfig, SYSTEM_PYTHON, TASK_39180_SOLUTION } from './helpers';

const contexts = createWorkDirectoryRolloutContextsForTests();
const environments: Environment[] = [];
afterEach(async () => {
  await contexts.removeAll();
  for (const environment of environments.splice(0)) await environment.teardown?.();
});

async function setUp(extra: SpreadsheetBenchConfigInput = {}): Promise<{ environment: Environment; item: SpreadsheetTaskItem }> {
  const environment = createSpreadsheetBenchEnvironment(realTasksConfig({ train: ['39180'] }, extra));
  environments.push(environment);
  const [item] = (await environment.loadSplit('train')) as SpreadsheetTaskItem[];
  return { environment, item: item as SpreadsheetTaskItem };
}

/** What every runner does first: the request's files into the workspace. */
function placeFiles(request: AgentRunRequest): void {
  for (const file of request.files ?? []) {
    const target = path.join(request.workspace, file.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
}

function filesBelow(directory: string, prefix = ''): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    return entry.isDirectory() ? [`${relative}/`, ...filesBelow(path.join(directory, entry.name), relative)] : [relative];
  });
}

/** The input → output pairs as task.md lists them. */
function pairsOf(request: AgentRunRequest): Array<[string, string]> {
  const task = readFileSync(path.join(request.workspace, 'task.md'), 'utf8');
  return [...task.matchAll(/^- `([^`]+)` → `([^`]+)`$/gm)].map((match) => [match[1] as string, match[2] as string]);
}

/** An agent that writes a script, as a coding agent would, and runs it with Python on each pair. */
function scriptWritingAgent(script: string) {
  return (request: AgentRunRequest): string => {
    placeFiles(request);
    const code = `import sys\nINPUT_PATH, OUTPUT_PATH = sys.argv[1], sys.argv[2]\n${script}\n`;
    writeFileSync(path.join(request.workspace, 'solve.py'), code);
    for (const [input, output] of pairsOf(request)) execFileSync(SYSTEM_PYTHON, ['solve.py', input, output], { cwd: request.workspace });
    return 'I wrote solve.py and ran it on each input.';
  };
}

async function rollOut(environment: Environment, item: SpreadsheetTaskItem, runner: ReturnType<typeof createScriptedAgentRunner>): Promise<RolloutResult> {
  const context = contexts.contextFor({ skill: '# A skill\n\n- Write values.', target: { kind: 'agent', runner }, itemId: item.id });
  return environment.rollout(item, { ...context, phase: 'train' });
}

function environmentTurn(result: RolloutResult): string {
  return result.status === 'scored' ? (result.trajectory?.turns.at(-1)?.content ?? '') : '';
}

describe('agent rollouts on a real task', () => {
  it('gives the agent task.md and copies of the inputs only, with write access, python3 and its harness sandboxed', async () => {
    const { environment, item } = await setUp();
    let seen: { files: string[]; task: string; request: AgentRunRequest } | undefined;
    const runner = createScriptedAgentRunner({
      reply: (request) => {
        placeFiles(request);
        seen = { files: filesBelow(request.workspace).sort(), task: readFileSync(path.join(request.workspace, 'task.md'), 'utf8'), request };
        return 'Nothing done.';
      },
    });
    await rollOut(environment, item, runner);
    expect(seen?.files).toEqual(['inputs/', 'inputs/1.xlsx', 'inputs/2.xlsx', 'inputs/3.xlsx', 'outputs/', 'task.md']);
    expect(seen?.request).toMatchObject({ workspaceAccess: 'write', allowedCommands: ['python3'], isolation: 'sandbox', purpose: 'rollout' });
    expect(seen?.request.prompt).toMatch(/^Read `task\.md` in your working directory/);
    expect(seen?.task).toMatch(/^# Instruction\n\nHow can I look up[\s\S]*Answer position: C2\n\n# Input workbook preview\n\n## Sheet: Sheet1/);
    expect(seen?.task).toContain('- `inputs/1.xlsx` → `outputs/1.xlsx`\n- `inputs/2.xlsx` → `outputs/2.xlsx`\n- `inputs/3.xlsx` → `outputs/3.xlsx`\n');
    // The copies are the inputs, byte for byte; nothing names the dataset's own files.
    const inputBytes = readFileSync(path.join(seen?.request.workspace ?? '', 'inputs/2.xlsx'));
    expect(inputBytes.equals(readFileSync(item.cases[1]?.input ?? ''))).toBe(true);
    expect(seen?.task).not.toMatch(/answer\.xlsx|_input|datasets-raw|spreadsheet\//);
  });

  it('scores the workbooks the agent saved with the evaluator: a correct script passes every case', async () => {
    const { environment, item } = await setUp();
    const runner = createScriptedAgentRunner({ reply: scriptWritingAgent(TASK_39180_SOLUTION) });
    const result = await rollOut(environment, item, runner);
    expect(result).toMatchObject({
      status: 'scored',
      hard: 1,
      soft: 1,
      prediction: 'saved outputs/1.xlsx, outputs/2.xlsx, outputs/3.xlsx; scripts solve.py',
      details: { mode: 'agent', targetKind: 'agent', casesPassed: 3, scripts: ['solve.py'] },
    });
    expect(environmentTurn(result)).toMatch(/^Evaluation \(3 test cases; the agent's output workbook of each was evaluated\)\nCase 1: PASS/);
    // The analyst reads the script the agent left, as it reads a chat model's code.
    expect(result.status === 'scored' && result.trajectory?.turns[1]?.content).toMatch(/I wrote solve\.py[\s\S]*solve\.py:\n```python\nimport sys\n/);
  });

  it('fails a case whose output is missing, wrong, or a link, naming why; an agent that saved nothing scores 0', async () => {
    const { environment, item } = await setUp();
    const runner = createScriptedAgentRunner({
      reply: (request) => {
        placeFiles(request);
        const outputs = path.join(request.workspace, 'outputs');
        // Case 1 unchanged (wrong), case 2 a link to its input, case 3 not saved at all.
        writeFileSync(path.join(outputs, '1.xlsx'), readFileSync(path.join(request.workspace, 'inputs/1.xlsx')));
        symlinkSync(path.join(request.workspace, 'inputs/2.xlsx'), path.join(outputs, '2.xlsx'));
        return 'Done.';
      },
    });
    const result = await rollOut(environment, item, runner);
    expect(result).toMatchObject({ status: 'scored', hard: 0, soft: 0 });
    const report = environmentTurn(result);
    expect(report).toMatch(/Case 1: FAIL: Sheet1!C2: expected 14, got /);
    expect(report).toContain('Case 2: FAIL: outputs/2.xlsx is not a regular file in the work folder: it is a symbolic link');
    expect(report).toContain('Case 3: FAIL: no output workbook: the agent did not save outputs/3.xlsx');

    const idle = createScriptedAgentRunner({ reply: () => 'I could not do it.' });
    expect(await rollOut(environment, item, idle)).toMatchObject({ status: 'scored', hard: 0, soft: 0, details: { casesPassed: 0 } });
  });

  it('never follows what the agent left to the answers: a link as the output or as its folder, a hard link, a FIFO', async () => {
    const { environment, item } = await setUp();
    // A host folder the agent cannot write, holding copies of the answers under the outputs' names.
    const answers = mkdtempSync(path.join(tmpdir(), 'spreadsheetbench-answers-'));
    try {
      for (const testCase of item.cases) copyFileSync(testCase.answer, path.join(answers, `${testCase.number}.xlsx`));
      const leaveOutputs = (arrange: (outputs: string, request: AgentRunRequest) => void) =>
        createScriptedAgentRunner({
          reply: (request) => {
            placeFiles(request);
            arrange(path.join(request.workspace, 'outputs'), request);
            return 'Done.';
          },
        });
      const reasonsOf = async (runner: ReturnType<typeof createScriptedAgentRunner>) => {
        const result = await rollOut(environment, item, runner);
        expect(result).toMatchObject({ status: 'scored', hard: 0, soft: 0, details: { casesPassed: 0 } });
        const cases = (result as { details?: { cases?: Array<{ stage: string; reason?: string }> } }).details?.cases ?? [];
        for (const outcome of cases) expect(outcome.stage).toBe('output');
        return cases.map((outcome) => outcome.reason);
      };

      const linkedFolder = leaveOutputs((outputs) => {
        rmSync(outputs, { recursive: true });
        symlinkSync(answers, outputs);
      });
      expect(await reasonsOf(linkedFolder)).toEqual(
        ['1', '2', '3'].map((number) => `outputs/${number}.xlsx is not a regular file in the work folder: a folder on its path is a symbolic link`),
      );
      const linkedFiles = leaveOutputs((outputs) => {
        for (const testCase of item.cases) symlinkSync(testCase.answer, path.join(outputs, `${testCase.number}.xlsx`));
      });
      expect(await reasonsOf(linkedFiles)).toEqual(
        ['1', '2', '3'].map((number) => `outputs/${number}.xlsx is not a regular file in the work folder: it is a symbolic link`),
      );
      const hardLinks = leaveOutputs((outputs) => {
        for (const testCase of item.cases) linkSync(path.join(answers, `${testCase.number}.xlsx`), path.join(outputs, `${testCase.number}.xlsx`));
      });
      for (const reason of await reasonsOf(hardLinks)) expect(reason).toMatch(/^outputs\/\d\.xlsx is a hard link/);
      const fifos = leaveOutputs((outputs) => {
        for (const testCase of item.cases) execFileSync('/usr/bin/mkfifo', [path.join(outputs, `${testCase.number}.xlsx`)]);
      });
      for (const reason of await reasonsOf(fifos)) expect(reason).toMatch(/is not a regular file in the work folder: it is a FIFO$/);
    } finally {
      rmSync(answers, { recursive: true, force: true });
    }
  });

  it('refuses, before running it, an agent runner that cannot sandbox its harness, unless the config says unsandboxed', async () => {
    const { environment, item } = await setUp();
    const unconfined = createScriptedAgentRunner({ reply: () => 'Done.', capabilities: { sandboxedRuns: false }, provider: 'pi' });
    await expect(rollOut(environment, item, unconfined)).rejects.toMatchObject({
      code: ERROR_CODES.configInvalid,
      retryable: false,
      message: expect.stringMatching(
        /the agent target pi .* cannot run its harness inside bubblewrap[\s\S]*claude-code or codex[\s\S]*env\.sandbox: unsandboxed/,
      ),
    });
    expect(unconfined.calls).toHaveLength(0);

    const unsandboxed = await setUp({ sandbox: 'unsandboxed' });
    const allowed = createScriptedAgentRunner({ reply: () => 'Done.', capabilities: { sandboxedRuns: false } });
    await rollOut(unsandboxed.environment, unsandboxed.item, allowed);
    expect(allowed.calls[0]).toMatchObject({ isolation: 'process', allowedCommands: ['python3'] });
  });

  it('lets a crashed harness propagate as the infrastructure failure it is, never a score', async () => {
    const { environment, item } = await setUp();
    const crash = new ProviderError({ provider: 'claude-code', code: ERROR_CODES.processCrashed, message: 'claude exited with code 1', retryable: true });
    const runner = createScriptedAgentRunner({
      reply: () => {
        throw crash;
      },
    });
    await expect(rollOut(environment, item, runner)).rejects.toBe(crash);
  });
});
