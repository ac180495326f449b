import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { ToolCall, ToolDefinition } from '@skillopt/contract';
import type { WorkbookRuntime } from './workbook-runtime.js';

/** The legacy ReAct mode's tools, under the original's names. */
export const REACT_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'bash',
    description:
      'Run Python in your working folder: the command must start with python or python3 (e.g. `python solution.py`, `python -c "..."`). No shell: pipes, redirections and other programs are not available.',
    inputSchema: { type: 'object', properties: { cmd: { type: 'string', description: 'The command line, starting with python.' } }, required: ['cmd'] },
  },
  {
    name: 'write_file',
    description: 'Write a text file in your working folder (a relative path; existing files are replaced).',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string', description: 'A path relative to the working folder.' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
  },
];

/** Characters of a tool's output the model receives; past `TOOL_OUTPUT_CHARACTERS + 200` it is cut with a note. */
const TOOL_OUTPUT_CHARACTERS = 3800;

export interface ToolOutcome {
  output: string;
  isError: boolean;
}

/** Splits a command line into words: quotes ('…', "…") and backslash escapes, nothing else (no shell). */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index] as string;
    if (quote !== undefined) {
      if (character === quote) quote = undefined;
      else if (character === '\\' && quote === '"' && index + 1 < line.length) current += line[++index];
      else current += character;
    } else if (character === '"' || character === "'") {
      quote = character;
      inWord = true;
    } else if (character === '\\' && index + 1 < line.length) {
      current += line[++index];
      inWord = true;
    } else if (/\s/.test(character)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += character;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new Error('the command has an unclosed quote');
  if (inWord) words.push(current);
  return words;
}

function cut(text: string): string {
  return text.length <= TOOL_OUTPUT_CHARACTERS + 200
    ? text
    : `${text.slice(0, TOOL_OUTPUT_CHARACTERS)}\n[... ${text.length - TOOL_OUTPUT_CHARACTERS} more characters cut]`;
}

/**
 * Opens a file of the working folder for writing, refusing anything that would land outside it:
 * an absolute path, `..`, a parent folder that resolves elsewhere, or a symbolic link as the file
 * itself (the code the model ran could have left one pointing out of the folder).
 */
async function openInsideFolder(folder: string, relativePath: string, flags: number): Promise<import('node:fs/promises').FileHandle> {
  if (relativePath.includes('\0') || path.isAbsolute(relativePath) || relativePath.split(/[\\/]/).includes('..'))
    throw new Error(`${JSON.stringify(relativePath)} is not a path inside the working folder`);
  const root = await realpath(folder);
  const target = path.resolve(root, relativePath);
  const parent = await realpath(path.dirname(target)).catch(() => {
    throw new Error(`the folder of ${JSON.stringify(relativePath)} does not exist`);
  });
  if (parent !== root && !parent.startsWith(`${root}${path.sep}`)) throw new Error(`${JSON.stringify(relativePath)} leaves the working folder`);
  return open(path.join(parent, path.basename(target)), flags | constants.O_NOFOLLOW, 0o666);
}

/** Runs one tool call in the task's working folder (a copy holding only the first case's input). */
export async function runReactTool(
  call: ToolCall,
  folder: string,
  runtime: WorkbookRuntime,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<ToolOutcome> {
  const input = (call.input ?? {}) as Record<string, unknown>;
  try {
    if (call.toolName === 'write_file') {
      if (typeof input.path !== 'string' || typeof input.content !== 'string') return { output: 'write_file needs a path and a content string', isError: true };
      const handle = await openInsideFolder(folder, input.path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC);
      try {
        await handle.writeFile(input.content);
      } finally {
        await handle.close();
      }
      return { output: `wrote ${input.path} (${Buffer.byteLength(input.content)} bytes)`, isError: false };
    }
    if (call.toolName === 'bash') {
      if (typeof input.cmd !== 'string') return { output: 'bash needs a cmd string', isError: true };
      const [program, ...args] = splitCommandLine(input.cmd);
      if (program === undefined || !/^python(?:3(?:\.\d+)?)?$/.test(path.basename(program)))
        return { output: 'only python can be run here: start the command with python or python3', isError: true };
      const run = await runtime.runPython({ args, directory: folder, timeoutMs: options.timeoutMs, signal: options.signal });
      if (run.timedOut) return { output: `stopped after ${options.timeoutMs / 1000} s (time limit)\n${cut(run.output)}`, isError: true };
      return {
        output: `${cut(run.output === '' ? '(no output)' : run.output)}${run.exitCode === 0 ? '' : `\n[exit status ${run.exitCode}]`}`,
        isError: run.exitCode !== 0,
      };
    }
    return { output: `unknown tool ${call.toolName}; the tools are bash and write_file`, isError: true };
  } catch (error) {
    return { output: error instanceof Error ? error.message : String(error), isError: true };
  }
}
