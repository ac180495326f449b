import type { ToolCallSeen } from './agent-turn.js';
import { fileTextOfToolOutput } from './tool-output-text.js';

/**
 * Whether a harness's tool call failed, read off its result as the harnesses report it: a result
 * marked as an error (`is_error`), a permission refusal (Claude Code: "… requested permissions to
 * use Bash …", "This command requires approval"), or a non-zero exit in the result's header
 * (Codex: "Process exited with code 1 … Output:", Claude Code: "Exit code 1", `"exit_code": 1`).
 * Only the framing counts, never the text a command printed, so a file that mentions an exit
 * code is still read.
 */

const PERMISSION_REFUSED =
  /^(?:[^\n]*\b(?:requested permissions? to use|haven't granted it|requires? approval)\b|Permission to use \S+[^\n]*\b(?:denied|not allowed)\b)/im;
const HEADER = /^(?:[^\n]*\n){0,8}?Output:\n/;
const EXIT_CODE = /(?:exited with code|^exit code:?|"exit_code"\s*:)\s*(-?\d+)/gim;

function exitCodesOf(output: string): number[] {
  const framing = HEADER.exec(output)?.[0] ?? output.split('\n', 1)[0] ?? '';
  const json = /"exit_code"\s*:\s*-?\d+/.test(output) && /^\s*\{/.test(output) ? output : '';
  return [...`${framing}\n${json}`.matchAll(EXIT_CODE)].map((match) => Number(match[1]));
}

/** Why the call failed (its output, cut to 200 characters), or undefined when it worked. */
export function toolCallFailure(call: ToolCallSeen, extraSign?: RegExp): string | undefined {
  if (call.output === undefined) return 'no result came back';
  const output = call.output;
  const failed =
    call.isError || PERMISSION_REFUSED.test(output.slice(0, 400)) || exitCodesOf(output).some((code) => code !== 0) || extraSign?.test(output) === true;
  if (!failed) return undefined;
  const text = fileTextOfToolOutput(output).replace(/\s+/g, ' ').trim();
  return text === '' ? 'no output' : text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
