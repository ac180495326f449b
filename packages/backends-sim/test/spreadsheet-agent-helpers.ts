import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChatModel, Message, ToolCall } from '@skillopt/contract';
import { CLAUDE_CODE_TOOLS } from './cli-tool-lists';
import { SYSTEM_PYTHON, type SpreadsheetItem, taskStatement, WORKBOOK_VALUE_CODECS } from './spreadsheet-helpers';

/**
 * What SpreadsheetBench's agent mode gives a harness (issue #24): the prompt on stdin, and task.md
 * in a workspace with `inputs/<case>.xlsx` and an empty `outputs/`.
 */

export const SPREADSHEET_AGENT_PROMPT = [
  'Read `task.md` in your working directory: it holds a spreadsheet task and the workbooks it applies to.',
  'Follow the skill document your harness gave you; it was written for tasks like this one.',
  'Save each finished workbook where task.md says, run Python with `python3` if you write a script, and ask no questions, since nobody will answer.',
  'End with one short paragraph saying what you did.',
].join('\n');

/** The case names of an item's inputs: `1`, `2`, … */
export function caseNames(item: SpreadsheetItem): string[] {
  return item.cases.map((_, index) => String(index + 1));
}

/** task.md as the env writes it: the chat prompt's instruction and preview, then the pairs to turn. */
export function taskFile(item: SpreadsheetItem): string {
  return [
    ...taskStatement(item),
    '',
    '# Task',
    '',
    'The folder `inputs/` holds this task\u2019s input workbooks: the same layout with other values. Carry out the instruction on',
    'each one and save the whole workbook under `outputs/`:',
    '',
    ...caseNames(item).map((name) => `- \`inputs/${name}.xlsx\` \u2192 \`outputs/${name}.xlsx\``),
    '',
    'Keep every cell the instruction does not ask you to change, and compute the answers from each workbook\u2019s data rather than',
    'typing values in. You may write a Python script in the working directory and run it with `python3` (openpyxl and pandas',
    'are installed); the inputs, like the whole working directory, are yours to read.',
    '',
  ].join('\n');
}

/** Claude Code's context: its system prompt with the working directory, CLAUDE.md inlined in a system reminder. */
export function claudeCodeMessages(workspace: string, skill: string): Message[] {
  return [
    { role: 'system', content: `You are Claude Code.\n\n# Environment\nPrimary working directory: ${workspace}` },
    {
      role: 'user',
      content: [
        {
          type: 'text',
          text: `<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\nContents of ${workspace}/CLAUDE.md (project instructions, checked into the codebase):\n\n${skill}\n</system-reminder>`,
        },
        { type: 'text', text: SPREADSHEET_AGENT_PROMPT },
      ],
    },
  ];
}

/** Codex's context: AGENTS.md in a developer message, the working directory in its environment context. */
export function codexMessages(workspace: string, skill: string): Message[] {
  return [
    { role: 'system', content: `# AGENTS.md instructions for ${workspace}\n\n<INSTRUCTIONS>\n${skill}\n</INSTRUCTIONS>` },
    { role: 'user', content: `<environment_context>\n  <cwd>${workspace}</cwd>\n  <shell>bash</shell>\n</environment_context>` },
    { role: 'user', content: SPREADSHEET_AGENT_PROMPT },
  ];
}

/** The conversation with one more round: the model's tool call, and the harness's result for it. */
export function withToolRound(messages: readonly Message[], call: ToolCall, output: string, isError = false): Message[] {
  return [
    ...messages,
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input }] },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output, ...(isError ? { isError: true } : {}) }],
    },
  ];
}

const BUILD_INPUTS = `
import datetime, json, os, sys
import openpyxl

${WORKBOOK_VALUE_CODECS}
for job in json.load(sys.stdin):
    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for cell in job["cells"]:
        if cell["sheet"] not in workbook.sheetnames:
            workbook.create_sheet(cell["sheet"])
        workbook[cell["sheet"]][cell["cell"]] = decode(cell["value"])
    workbook.save(job["path"])
`;

const READ_OUTPUTS = `
import datetime, json, os, sys
import openpyxl

${WORKBOOK_VALUE_CODECS}
results = []
for job in json.load(sys.stdin):
    if not os.path.exists(job["path"]):
        results.append(None)
        continue
    values = openpyxl.load_workbook(job["path"], data_only=True)
    results.append([encode(values[cell["sheet"]][cell["cell"]].value) if cell["sheet"] in values.sheetnames else None for cell in job["cells"]])
print(json.dumps(results))
`;

function runPython(program: string, input: unknown): string {
  const result = spawnSync(SYSTEM_PYTHON, ['-c', program], { input: JSON.stringify(input), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${SYSTEM_PYTHON} failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

/** Fails with what to install when Debian's python3 or its openpyxl is missing (CI installs python3-openpyxl). */
export function requireSystemOpenpyxl(): void {
  const probe = spawnSync(SYSTEM_PYTHON, ['-c', 'import openpyxl'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0)
    throw new Error(
      `these tests run the simulated agent's script with ${SYSTEM_PYTHON} and openpyxl, which is missing here (${probe.error?.message ?? probe.stderr.trim()}): install python3-openpyxl (apt-get install python3-openpyxl)`,
    );
}

/** Builds each case's input workbook with openpyxl, `<folder>/<case>.xlsx` (one python process for all). */
export function buildInputWorkbooks(item: SpreadsheetItem, folder: string): void {
  mkdirSync(folder, { recursive: true });
  runPython(
    BUILD_INPUTS,
    item.cases.map((spreadsheetCase, index) => ({ path: path.join(folder, `${index + 1}.xlsx`), cells: spreadsheetCase.input })),
  );
}

/**
 * A workspace as the env lays it out: task.md, copies of the input workbooks built in `inputs`
 * (buildInputWorkbooks) as `inputs/<case>.xlsx`, an empty `outputs/`; and a `bin/` beside it whose
 * `python3` is Debian's, for the harness's shell to put first on PATH.
 */
export function spreadsheetWorkspace(item: SpreadsheetItem, inputs: string): { workspace: string; bin: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sim-sheet-agent-'));
  const workspace = path.join(root, 'workspace');
  const bin = path.join(root, 'bin');
  mkdirSync(path.join(workspace, 'inputs'), { recursive: true });
  mkdirSync(path.join(workspace, 'outputs'));
  mkdirSync(bin);
  symlinkSync(SYSTEM_PYTHON, path.join(bin, 'python3'));
  writeFileSync(path.join(workspace, 'task.md'), taskFile(item));
  for (const name of caseNames(item)) copyFileSync(path.join(inputs, `${name}.xlsx`), path.join(workspace, 'inputs', `${name}.xlsx`));
  return { workspace, bin };
}

export interface OutputCheck {
  /** Each case's answer cells as read back with data_only=True, or null when its output is missing. */
  got: Array<unknown[] | null>;
  /** Whether each case's output holds every answer as the SpreadsheetBench evaluator compares them (numbers to two places). */
  passed: boolean[];
}

function comparable(value: unknown): unknown {
  if (typeof value === 'number') return Math.round(value * 100) / 100;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Math.round(Number(value) * 100) / 100;
  return value === '' ? null : JSON.stringify(value);
}

/** Reads `outputs/<case>.xlsx` back with openpyxl and compares each answer cell. */
export function checkOutputs(workspace: string, item: SpreadsheetItem): OutputCheck {
  const jobs = item.cases.map((spreadsheetCase, index) => ({ path: path.join(workspace, 'outputs', `${index + 1}.xlsx`), cells: spreadsheetCase.answers }));
  const got = JSON.parse(runPython(READ_OUTPUTS, jobs)) as Array<unknown[] | null>;
  const passed = got.map(
    (values, index) => values !== null && (item.cases[index]?.answers ?? []).every((cell, at) => comparable(values[at]) === comparable(cell.value)),
  );
  return { got, passed };
}

/** The script the simulated agent writes to solve.py in Claude Code's workspace `workspace`, after reading task.md. */
export async function agentScript(model: ChatModel, item: SpreadsheetItem, skill: string, workspace = '/tmp/skillopt-agent-workspace'): Promise<string> {
  const messages = claudeCodeMessages(workspace, skill);
  const tools = [...CLAUDE_CODE_TOOLS];
  const read = (await model.generate({ messages, tools, purpose: 'rollout' })).toolCalls?.[0];
  if (read === undefined) throw new Error('the agent did not read task.md');
  const write = (await model.generate({ messages: withToolRound(messages, read, taskFile(item)), tools, purpose: 'rollout' })).toolCalls?.[0];
  const content = (write?.input as { content?: unknown } | undefined)?.content;
  if (typeof content !== 'string') throw new Error('the agent wrote no script');
  return content;
}
