import type { ToolCallSeen } from './agent-turn.js';
import { HEREDOC_END, runCommandCall, shellQuoted, writeFileCall, type AgentTools } from './tool-choice.js';
import { toolCallFailure } from './tool-failure.js';

/**
 * The simulated target as a coding agent on a spreadsheet task: once task.md is read, it writes its
 * openpyxl script to a file with the harness's writer (or a shell heredoc), runs it with `python3`
 * on every input → output pair task.md lists, and ends with a short paragraph on what it saved.
 * Every step is read off the conversation (which calls happened, what they returned), never a
 * counter, so a harness that repeats a request gets the same step.
 */

/** The file the script is written to, in the working directory. */
const SCRIPT_FILE = 'solve.py';

/** A write is tried twice: with the writer, then (after an error) with the shell. */
const WRITE_ATTEMPTS = 2;

export interface WorkbookPair {
  input: string;
  output: string;
}

/** task.md's list of the workbooks to turn: "- `inputs/1.xlsx` → `outputs/1.xlsx`". */
const PAIR_LINE = /^- `([^`\n]+)` → `([^`\n]+)`[ \t]*$/gm;

/** The input → output pairs the files read list, in their order, each once. */
export function workbookPairsOf(filesRead: ReadonlyMap<string, string>): WorkbookPair[] {
  const pairs: WorkbookPair[] = [];
  for (const text of filesRead.values())
    for (const match of text.matchAll(PAIR_LINE)) {
      const pair = { input: match[1] as string, output: match[2] as string };
      if (!pairs.some((known) => known.input === pair.input && known.output === pair.output)) pairs.push(pair);
    }
  return pairs;
}

export type SpreadsheetAgentStep =
  | { kind: 'tool'; action: 'write' | 'run'; toolName: string; input: Record<string, unknown> }
  | { kind: 'reply'; text: string; saved: string[] };

/** Where the agent stands: the tools the request offers, the calls so far, the working directory. */
export interface SpreadsheetAgentState {
  tools: AgentTools;
  calls: readonly ToolCallSeen[];
  workingDirectory: string | undefined;
}

/** Our script prints nothing when it works: a traceback means it failed, whatever the exit code says. */
const TRACEBACK = /^Traceback \(most recent call last\)/m;

function failureOf(call: ToolCallSeen): string | undefined {
  return toolCallFailure(call, TRACEBACK);
}

function commandOf(call: ToolCallSeen, tools: AgentTools): string | undefined {
  const shell = tools.shell;
  if (shell === undefined || call.toolName !== shell.tool.name) return undefined;
  const input = JSON.parse(call.input) as Record<string, unknown> | null;
  const command = input?.[shell.commandProperty];
  return Array.isArray(command) ? command.map(String).join(' ') : typeof command === 'string' ? command : undefined;
}

function isScriptWrite(call: ToolCallSeen, tools: AgentTools): boolean {
  if (call.toolName === tools.writer?.tool.name) return call.input.includes(SCRIPT_FILE);
  const command = commandOf(call, tools) ?? '';
  return command.includes(HEREDOC_END) && command.includes(`> ${SCRIPT_FILE}`);
}

function isScriptRun(call: ToolCallSeen, tools: AgentTools): boolean {
  const command = commandOf(call, tools) ?? '';
  return !command.includes(HEREDOC_END) && /\bpython3\b/.test(command) && command.includes(SCRIPT_FILE);
}

function inWorkingDirectory(file: string, workingDirectory: string | undefined): string {
  return workingDirectory === undefined || file.startsWith('/') ? file : `${workingDirectory.replace(/\/+$/, '')}/${file}`;
}

/** One plain `python3 …` per pair, so an allowlist of `python3` accepts each part of the `&&` chain. */
function runCommand(pairs: readonly WorkbookPair[], workingDirectory?: string): string {
  return pairs
    .map((pair) =>
      [
        'python3',
        inWorkingDirectory(SCRIPT_FILE, workingDirectory),
        inWorkingDirectory(pair.input, workingDirectory),
        inWorkingDirectory(pair.output, workingDirectory),
      ]
        .map(shellQuoted)
        .join(' '),
    )
    .join(' && ');
}

function listed(files: readonly string[]): string {
  if (files.length <= 1) return files.join('');
  return `${files.slice(0, -1).join(', ')} and ${files.at(-1)}`;
}

const WHAT_THE_SCRIPT_DOES =
  'an openpyxl script that tells from each input workbook\u2019s cells which of the task\u2019s cases it is and writes that case\u2019s answers (from my simulated knowledge)';

/**
 * The next step on a spreadsheet task whose script is `script`: write it, run it on every pair in
 * one command, after a failed run run each pair on its own call (with absolute paths where the
 * working directory is known), then reply. Without a shell it writes nothing and says why.
 */
export function planSpreadsheetAgentStep(state: SpreadsheetAgentState, pairs: readonly WorkbookPair[], script: string): SpreadsheetAgentStep {
  const { tools, calls, workingDirectory } = state;
  const outputs = pairs.map((pair) => pair.output);
  if (tools.shell === undefined)
    return {
      kind: 'reply',
      text: `This harness gave me no shell to run Python with, so I could not run code: I wrote no script and saved none of ${listed(outputs)}.`,
      saved: [],
    };

  const writes = calls.filter((call) => isScriptWrite(call, tools));
  if (!writes.some((call) => failureOf(call) === undefined)) {
    if (writes.length >= WRITE_ATTEMPTS) {
      const reason = failureOf(writes.at(-1) as ToolCallSeen);
      return { kind: 'reply', text: `I could not write ${SCRIPT_FILE} (${reason}), so I saved none of ${listed(outputs)}.`, saved: [] };
    }
    const call = writeFileCall(tools, SCRIPT_FILE, script, workingDirectory, writes.length > 0) as NonNullable<ReturnType<typeof writeFileCall>>;
    return { kind: 'tool', action: 'write', toolName: call.tool.name, input: call.input };
  }

  const runs = calls.filter((call) => isScriptRun(call, tools));
  const run = (command: string): SpreadsheetAgentStep => {
    const call = runCommandCall(tools, command, `Run ${SCRIPT_FILE}`) as NonNullable<ReturnType<typeof runCommandCall>>;
    return { kind: 'tool', action: 'run', toolName: call.tool.name, input: call.input };
  };
  const [together, ...separately] = runs;
  if (together === undefined) return run(runCommand(pairs));
  const togetherFailure = failureOf(together);
  if (togetherFailure === undefined)
    return { kind: 'reply', text: `I wrote ${SCRIPT_FILE}, ${WHAT_THE_SCRIPT_DOES}, and ran it with python3: it saved ${listed(outputs)}.`, saved: outputs };
  const next = pairs[separately.length];
  if (next !== undefined) return run(runCommand([next], workingDirectory));

  const saved = pairs.filter((_, index) => failureOf(separately[index] as ToolCallSeen) === undefined).map((pair) => pair.output);
  const failed = pairs.filter((pair) => !saved.includes(pair.output)).map((pair) => pair.output);
  const lastFailure = separately.map(failureOf).find((reason) => reason !== undefined);
  const opening = `I wrote ${SCRIPT_FILE}, ${WHAT_THE_SCRIPT_DOES}. Running it on every input in one command failed (${togetherFailure}), so I ran it on each input on its own:`;
  const text =
    saved.length === 0
      ? `${opening} that failed too (${lastFailure}), so I saved none of ${listed(outputs)}.`
      : `${opening} it saved ${listed(saved)}${failed.length > 0 ? `; ${listed(failed)} failed (${lastFailure})` : ''}.`;
  return { kind: 'reply', text, saved };
}
