import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AgentRunner, ERROR_CODES, type RolloutContext, type RolloutResult, SkillOptError, type TrajectoryTurn } from '@skillopt/contract';
import { runAgentTask } from '@skillopt/env-kit';
import { copyWorkspaceFile, readWorkspaceFile, workspaceFileProblem } from '@skillopt/runtime-kit';
import { type AgentCaseFiles, AGENT_OUTPUT_FOLDER, agentCaseFiles, agentInputFiles } from './agent-workspace.js';
import { type CaseOutcome, evaluateWorkbooks } from './case-scoring.js';
import { scoredResult } from './codegen-rollout.js';
import type { SpreadsheetBenchConfig } from './config.js';
import type { SpreadsheetTaskItem } from './items.js';
import { AGENT_PROMPT, buildAgentTaskText } from './prompt.js';
import type { WorkbookRuntime } from './workbook-runtime.js';

/** What an agent may run besides reading: the interpreter its scripts need. */
const AGENT_COMMANDS = ['python3'];

/** How much of the scripts an agent left the analyst reads. */
const SCRIPT_FILES = 5;
const SCRIPT_CHARACTERS = 20_000;
/** A script past this size is not read at all: far beyond what an agent writes for one task. */
const SCRIPT_MAX_BYTES = 1024 * 1024;

/** The evaluation report's first line says how the outputs came about. */
const AGENT_EVALUATION = "the agent's output workbook of each was evaluated";

/**
 * The backend of an agent target must run its harness inside bubblewrap (`sandboxedRuns`): the
 * agent writes code and runs it, so a runner that ignored `isolation` would run that code with
 * the user's rights and within reach of the answer workbooks. Refused before anything runs.
 */
function requireSandboxedRunner(runner: AgentRunner, config: SpreadsheetBenchConfig): void {
  if (config.sandbox === 'unsandboxed' || runner.capabilities?.sandboxedRuns === true) return;
  throw new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message:
      `spreadsheetbench: the agent target ${runner.provider} ${runner.modelId} cannot run its harness inside bubblewrap, and an agent on this benchmark runs the code it writes. ` +
      'Use a target backend that can (claude-code or codex), or set `env.sandbox: unsandboxed` to run the agent with your own rights, only on a machine that is itself a sandbox.',
    details: { provider: runner.provider },
  });
}

/**
 * Copies the agent's output of one case, read as data, to `copy` on the trusted side, or says why
 * it cannot be evaluated: missing, or not a regular file the agent saved (a link the evaluator,
 * reading as this process's user, would follow to any file of the host; a hard link; a FIFO).
 */
async function copyOutput(workspace: string, entry: AgentCaseFiles, copy: string, maxBytes: number): Promise<string | undefined> {
  try {
    await copyWorkspaceFile(workspace, entry.output, copy, { maxBytes });
    return undefined;
  } catch (error) {
    const problem = workspaceFileProblem(error);
    if (problem === undefined) throw error;
    return problem === 'missing' ? `no output workbook: the agent did not save ${entry.output}` : (error as Error).message;
  }
}

/**
 * The agent's outputs, each evaluated against its case's answer in one sandboxed call. Called once
 * the agent's run has ended, its harness and every process it started with it: the outputs are
 * copied out of the workspace first, and the evaluator reads those copies.
 */
async function evaluateOutputs(
  runtime: WorkbookRuntime,
  item: SpreadsheetTaskItem,
  workspace: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<CaseOutcome[]> {
  const cases = agentCaseFiles(item);
  const copies = await mkdtemp(path.join(tmpdir(), 'skillopt-spreadsheet-outputs-'));
  try {
    const copyOf = (index: number) => path.join(copies, `${index}.xlsx`);
    const problems: Array<string | undefined> = [];
    for (const [index, entry] of cases.entries()) problems.push(await copyOutput(workspace, entry, copyOf(index), maxBytes));
    const present = cases.flatMap((entry, index) => (problems[index] === undefined ? [{ entry, index }] : []));
    const verdicts = await evaluateWorkbooks(
      runtime,
      item,
      present.map(({ entry, index }) => ({ testCase: entry.testCase, prediction: copyOf(index) })),
      signal,
    );
    return cases.map((entry, index): CaseOutcome => {
      const problem = problems[index];
      if (problem !== undefined) return { number: entry.testCase.number, stage: 'output', pass: false, reason: problem };
      const verdict = verdicts[present.findIndex((presentEntry) => presentEntry.index === index)];
      if (verdict === undefined) throw new Error(`spreadsheetbench: no verdict for case ${entry.testCase.number}`);
      return { number: entry.testCase.number, stage: 'eval', pass: verdict.pass, ...(verdict.reason === null ? {} : { reason: verdict.reason }), verdict };
    });
  } finally {
    await rm(copies, { recursive: true, force: true });
  }
}

/** The Python files the agent left in its workspace (plain files only, read as data, never through a link), for the analyst. */
async function scriptsLeftBehind(workspace: string): Promise<Array<{ path: string; text: string }>> {
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await readdir(path.join(workspace, relative), { withFileTypes: true })) {
      const entryPath = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory() && !entry.name.startsWith('.')) await walk(entryPath);
      else if (entry.isFile() && entry.name.endsWith('.py')) found.push(entryPath);
    }
  };
  await walk('');
  const scripts = [];
  for (const file of found.sort().slice(0, SCRIPT_FILES)) {
    const text = await readScript(workspace, file);
    scripts.push({ path: file, text: text.length > SCRIPT_CHARACTERS ? `${text.slice(0, SCRIPT_CHARACTERS)}\n# [... cut]` : text });
  }
  return scripts;
}

/** A script's text, or a comment saying why it was not read (a hard link, too large). */
async function readScript(workspace: string, file: string): Promise<string> {
  try {
    return (await readWorkspaceFile(workspace, file, { maxBytes: SCRIPT_MAX_BYTES })).toString('utf8');
  } catch (error) {
    if (workspaceFileProblem(error) === undefined) throw error;
    return `# [not read: ${(error as Error).message}]`;
  }
}

function assistantTurn(finalText: string, scripts: ReadonlyArray<{ path: string; text: string }>): string {
  if (scripts.length === 0) return finalText;
  const listing = scripts.map((script) => `${script.path}:\n\`\`\`python\n${script.text.replace(/\n?$/, '\n')}\`\`\``);
  return `${finalText}\n\nThe scripts the agent left in its workspace:\n\n${listing.join('\n\n')}`;
}

/**
 * Rolls a task out on an agent: its workspace holds `task.md` and copies of the cases' inputs
 * (never the answers, nor the dataset's folder); the agent may write files there and run
 * `python3`, with its harness inside bubblewrap (`isolation: sandbox`) unless the config says
 * `sandbox: unsandboxed`. Then each output it saved is evaluated, in the sandbox as every
 * evaluation is; a case without one fails. What the agent wrote is never run by the env. A failed
 * harness (crash, timeout, empty reply) propagates: an infrastructure failure, never a score.
 */
export async function rolloutAgentTask(
  config: SpreadsheetBenchConfig,
  runtime: WorkbookRuntime,
  item: SpreadsheetTaskItem,
  runner: AgentRunner,
  context: RolloutContext,
): Promise<RolloutResult> {
  requireSandboxedRunner(runner, config);
  const started = Date.now();
  const workspace = await context.workDirectory();
  const cases = agentCaseFiles(item);
  const taskText = buildAgentTaskText(item, cases, config.allow_pandas);
  // The folder is there before the agent starts, so a script that saves into it needs nothing else.
  await mkdir(path.join(workspace, AGENT_OUTPUT_FOLDER), { recursive: true });
  const run = await runAgentTask(
    runner,
    {
      text: taskText,
      files: await agentInputFiles(cases),
      prompt: AGENT_PROMPT,
      permissions: {
        workspaceAccess: 'write',
        allowedCommands: AGENT_COMMANDS,
        isolation: config.sandbox === 'bubblewrap' ? 'sandbox' : 'process',
      },
    },
    context,
    config.exec_timeout * 1000,
  );
  // runAgentTask has resolved: the harness has exited, and its sandbox with everything in it.
  const outcomes = await evaluateOutputs(runtime, item, workspace, config.sandbox_max_file_mb * 1024 * 1024, context.signal);
  const scripts = await scriptsLeftBehind(workspace);
  const turns: TrajectoryTurn[] = [
    { role: 'user', content: `${run.prompt}\n\ntask.md:\n\n${taskText}` },
    { role: 'assistant', content: assistantTurn(run.finalText, scripts) },
  ];
  // The prediction names what the agent produced; its scripts are read once, in its turn.
  const saved = cases.filter((entry) => outcomes.find((outcome) => outcome.number === entry.testCase.number)?.stage === 'eval').map((entry) => entry.output);
  const prediction = `saved ${saved.length === 0 ? 'no workbook' : saved.join(', ')}${scripts.length === 0 ? '' : `; scripts ${scripts.map((script) => script.path).join(', ')}`}`;
  return scoredResult(
    item,
    runtime,
    outcomes,
    {
      turns,
      usage: run.usage,
      durationMs: Date.now() - started,
      code: prediction,
      details: { ...run.details, mode: 'agent', scripts: scripts.map((script) => script.path), finalText: run.finalText },
    },
    AGENT_EVALUATION,
  );
}
