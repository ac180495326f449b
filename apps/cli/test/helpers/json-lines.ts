import type { RunEvent } from '@skillopt/contract';

/** The last line of a streaming command's --json output (docs/cli-json.md). */
export type FinalLine =
  | ({ type: 'result' } & Record<string, unknown>)
  | { type: 'error'; error: { code: string; category: string; message: string; remedy?: string; exitCode: number; resumeCommand?: string } };

/**
 * A streaming command's stdout under --json, read as its documents say: every line one JSON
 * value, the run events first, then exactly one `result` or `error` line. Throws on anything else.
 */
export function readJsonLines(stdout: string): { events: RunEvent[]; final: FinalLine } {
  if (!stdout.endsWith('\n')) throw new Error(`stdout does not end with a newline: ${JSON.stringify(stdout.slice(-80))}`);
  const values = stdout
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as { type?: unknown });
  const final = values.pop() as FinalLine | undefined;
  if (final?.type !== 'result' && final?.type !== 'error') throw new Error(`the last line is not a result or an error line: ${JSON.stringify(final)}`);
  const stray = values.find((value) => value.type === 'result' || value.type === 'error');
  if (stray) throw new Error(`a ${String(stray.type)} line before the last one`);
  return { events: values as RunEvent[], final };
}
