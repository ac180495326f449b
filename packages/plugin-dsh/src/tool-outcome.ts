import type { CollectedOutput, JsonSchema, ShellRunResult } from './host-services.js';

/** How a command ended: its exit code, or that the timeout or a signal ended it. */
type CommandExit = number | 'timeout' | 'signal';

/** What a tool returns: how `skillopt-sleep` ended, what it printed, and its `{"type":"result"}` line, parsed. */
export interface SleepToolOutcome {
  tool: string;
  exit: CommandExit;
  /** Standard output then standard error, without the result line. */
  output: string;
  result?: Record<string, unknown>;
}

/** The output schema the tools declare for {@link SleepToolOutcome}. */
export const OUTCOME_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    tool: { type: 'string' },
    exit: { oneOf: [{ type: 'integer' }, { type: 'string', enum: ['timeout', 'signal'] }] },
    output: { type: 'string' },
    result: { type: 'object', description: 'the {"type":"result"} line skillopt-sleep --json printed last, when it printed one' },
  },
  required: ['tool', 'exit', 'output'],
  additionalProperties: false,
};

function commandExit(run: ShellRunResult): CommandExit {
  if (run.timedOut) return 'timeout';
  return run.exitCode ?? 'signal';
}

function streamText(output: CollectedOutput, stream: string): string {
  if (!output.truncated) return output.text;
  const where = output.spillPath === undefined ? '' : `; all of it is in ${output.spillPath}`;
  return `[${stream} cut to its last part${where}]\n${output.text}`;
}

function resultLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null && (parsed as { type?: unknown }).type === 'result' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The outcome of one command: `--json` makes the last line of standard output the result, when the command got that far. */
export function sleepToolOutcome(tool: string, run: ShellRunResult): SleepToolOutcome {
  const stdoutLines = streamText(run.stdout, 'standard output').trimEnd().split('\n');
  const result = resultLine(stdoutLines.at(-1) ?? '');
  if (result !== undefined) stdoutLines.pop();
  const output = [stdoutLines.join('\n').trim(), streamText(run.stderr, 'standard error').trim()].filter((text) => text !== '').join('\n');
  return { tool, exit: commandExit(run), output, ...(result === undefined ? {} : { result }) };
}

/** What the model reads: `[skillopt <tool>] exit=<code|timeout|signal>`, the output, and the result line. */
export function renderOutcome(outcome: SleepToolOutcome): string {
  return [
    `[skillopt ${outcome.tool}] exit=${outcome.exit}`,
    ...(outcome.output === '' ? [] : [outcome.output]),
    ...(outcome.result === undefined ? [] : [`result: ${JSON.stringify(outcome.result)}`]),
    ...(outcome.output === '' && outcome.result === undefined ? ['(no output)'] : []),
  ].join('\n');
}
