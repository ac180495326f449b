import { lstat, mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type AgentRunner, ERROR_CODES, type RolloutContext, type RolloutResult, SkillOptError, type TrajectoryTurn } from '@skillopt/contract';
import { runAgentTask } from '@skillopt/env-kit';
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

/** Why an output cannot be evaluated, or undefined when it is a plain file the agent wrote. */
async function outputProblem(workspace: string, entry: AgentCaseFiles): Promise<string | undefined> {
  const status = await lstat(path.join(workspace, entry.output)).catch(() => undefined);
  if (status === undefined) return `no output workbook: the agent did not save ${entry.output}`;
  // A link could point the evaluator, which reads as this process's user, at any file of the host.
  if (status.isSymbolicLink()) return `${entry.output} is a symbolic link, not a workbook the agent saved`;
  if (!status.isFile()) return `${entry.output} is not a file`;
  if (status.nlink > 1) return `${entry.output} is a hard link to another file, not a workbook the agent saved`;
  return undefined;
}

/** The agent's outputs, each evaluated against its case's answer in one sandboxed call. */
async function evaluateOutputs(runtime: WorkbookRuntime, item: SpreadsheetTaskItem, workspace: string, signal: AbortSignal): Promise<CaseOutcome[]> {
  const cases = agentCaseFiles(item);
  const problems = await Promise.all(cases.map((entry) => outputProblem(workspace, entry)));
  const present = cases.filter((_, index) => problems[index] === undefined);
  const verdicts = await evaluateWorkbooks(
    runtime,
    item,
    present.map((entry) => ({ testCase: entry.testCase, prediction: path.join(workspace, entry.output) })),
    signal,
  );
  return cases.map((entry, index): CaseOutcome => {
    const problem = problems[index];
    if (problem !== undefined) return { number: entry.testCase.number, stage: 'output', pass: false, reason: problem };
    const verdict = verdicts[present.indexOf(entry)];
    if (verdict === undefined) throw new Error(`spreadsheetbench: no verdict for case ${entry.testCase.number}`);
    return { number: entry.testCase.number, stage: 'eval', pass: verdict.pass, ...(verdict.reason === null ? {} : { reason: verdict.reason }), verdict };
  });
}

/** The Python files the agent left in its workspace (plain files only, never followed links), for the analyst. */
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
    const text = await readFile(path.join(workspace, file), 'utf8');
    scripts.push({ path: file, text: text.length > SCRIPT_CHARACTERS ? `${text.slice(0, SCRIPT_CHARACTERS)}\n# [... cut]` : text });
  }
  return scripts;
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
  const outcomes = await evaluateOutputs(runtime, item, workspace, context.signal);
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
