import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { addUsage, type Message, type RolloutContext, type RolloutResult, type TrajectoryTurn, type Usage } from '@skillopt/contract';
import { assistantToolCallMessage, chatTargetModel, describeToolCall, generateBefore, startItemDeadline, toolResultPart } from '@skillopt/env-kit';
import { readWorkspaceFile, workspaceFileProblem } from '@skillopt/runtime-kit';
import { scoreScriptOnEveryCase } from './case-scoring.js';
import { noCodeResult, scoredResult } from './codegen-rollout.js';
import type { SpreadsheetBenchConfig } from './config.js';
import type { SpreadsheetTaskItem } from './items.js';
import { buildSystemPrompt, buildUserPrompt } from './prompt.js';
import { REACT_TOOLS, runReactTool } from './react-tools.js';
import type { WorkbookRuntime } from './workbook-runtime.js';

/** The script the ReAct mode scores: the model's `solution.py`. */
const SOLUTION_FILE = 'solution.py';

/** What the ReAct prompt adds to the task: the folder, the tools and the solution file. */
const REACT_TASK_NOTES = [
  '',
  '# Tools',
  '',
  'Your working folder holds `input.xlsx`, a copy of the first test case. Use write_file to write `solution.py`, a script that begins with',
  '`INPUT_PATH = "input.xlsx"` and `OUTPUT_PATH = "output.xlsx"`, and bash to run it (`python solution.py`) and to inspect the workbook with Python.',
  'When solution.py is right, reply without a tool call. It is then run on every test case, with INPUT_PATH and OUTPUT_PATH set for each.',
].join('\n');

/** The longest `solution.py` read back: far beyond any script a model writes in a reply. */
const SOLUTION_MAX_BYTES = 1024 * 1024;

const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0 };

/**
 * The `solution.py` the model left, read as data (the Python it ran in the sandbox may have made
 * it a link or a FIFO), or why there is none. Read after the last tool call, whose sandboxed run
 * has ended with every process of it.
 */
async function readSolution(folder: string): Promise<{ code: string } | { missing: string }> {
  try {
    return { code: (await readWorkspaceFile(folder, SOLUTION_FILE, { maxBytes: SOLUTION_MAX_BYTES })).toString('utf8').trim() };
  } catch (error) {
    const problem = workspaceFileProblem(error);
    if (problem === undefined) throw error;
    return { missing: problem === 'missing' ? `no ${SOLUTION_FILE} in the working folder` : (error as Error).message };
  }
}

/**
 * The legacy ReAct mode: a tool loop of at most `max_turns` model calls with `bash` (Python only,
 * in the sandbox) and `write_file` (inside the task's folder only), ending on the first reply
 * without tool calls; the `solution.py` the model left is then scored on every case.
 */
export async function rolloutReactTask(
  config: SpreadsheetBenchConfig,
  runtime: WorkbookRuntime,
  item: SpreadsheetTaskItem,
  context: RolloutContext,
): Promise<RolloutResult> {
  const model = chatTargetModel(context.target, 'spreadsheetbench', 'a chat model with tools');
  const started = Date.now();
  const deadline = startItemDeadline(context.signal, config.exec_timeout * 1000, model, `spreadsheetbench task ${item.id}`, item.id);
  try {
    const workDirectory = await context.workDirectory();
    const folder = path.join(workDirectory, 'react');
    await mkdir(folder, { recursive: true });
    const firstCase = item.cases[0];
    if (firstCase !== undefined) {
      await copyFile(firstCase.input, path.join(folder, 'input.xlsx'));
    }
    const userPrompt = `${buildUserPrompt(item)}\n${REACT_TASK_NOTES}`;
    const messages: Message[] = [
      { role: 'system', content: buildSystemPrompt(context.skill, config.allow_pandas) },
      { role: 'user', content: userPrompt },
    ];
    const turns: TrajectoryTurn[] = [{ role: 'user', content: userPrompt }];
    let usage = ZERO_USAGE;
    let modelCalls = 0;
    let toolCalls = 0;
    let finished = false;
    while (modelCalls < config.max_turns) {
      const reply = await generateBefore(
        model,
        { messages: [...messages], tools: [...REACT_TOOLS], maxOutputTokens: config.max_completion_tokens, purpose: 'rollout' },
        deadline.signal,
      );
      modelCalls += 1;
      usage = addUsage(usage, reply.usage);
      const calls = reply.toolCalls ?? [];
      const callLines = calls.map((call) => `[tool call] ${describeToolCall(call)}`).join('\n');
      turns.push({ role: 'assistant', content: [reply.text.trim(), callLines].filter((part) => part !== '').join('\n') });
      if (calls.length === 0) {
        finished = true;
        break;
      }
      messages.push(assistantToolCallMessage(reply.text, calls));
      const results = [];
      for (const call of calls) {
        const outcome = await runReactTool(call, folder, runtime, { timeoutMs: config.case_timeout * 1000, signal: deadline.signal });
        toolCalls += 1;
        results.push(toolResultPart(call, outcome));
        turns.push({ role: 'tool', toolName: call.toolName, content: `${outcome.isError ? '[error] ' : ''}${outcome.output}` });
      }
      messages.push({ role: 'tool', content: results });
    }
    const solution = await readSolution(folder);
    const code = 'code' in solution ? solution.code : '';
    const details = { mode: config.mode, modelCalls, toolCalls, finished };
    if (code === '')
      return noCodeResult(item, runtime, {
        turns,
        usage,
        durationMs: Date.now() - started,
        details,
        note: ` (${'missing' in solution ? solution.missing : `${SOLUTION_FILE} is empty`})`,
      });
    const outcomes = await scoreScriptOnEveryCase(runtime, item, code, { workDirectory, caseTimeoutMs: config.case_timeout * 1000, signal: deadline.signal });
    return scoredResult(item, runtime, outcomes, { turns, usage, durationMs: Date.now() - started, code, details });
  } finally {
    deadline.dispose();
  }
}
