import { redactSecrets } from '@skillopt/contract';
import type { ErrorReport } from './error-report.js';

/**
 * The output of a streaming command under --json (docs/cli-json.md, "JSON Lines"): one JSON
 * value per line, each with a `type`. The run events come first, as the contract defines them
 * (`run-started`, `gate-decided`, …); the last line is `result` or `error`, names no event takes.
 */
const FINAL_LINE_TYPES = { result: 'result', error: 'error' } as const;

/** A value as one line of JSON Lines, secrets cut out. */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(redactSecrets(value))}\n`;
}

/** The last line of a command that succeeded: its result's fields beside `type`. */
export function resultLine(result: object): { type: typeof FINAL_LINE_TYPES.result } {
  return { type: FINAL_LINE_TYPES.result, ...result };
}

/** The last line of a command that failed. */
export function errorLine(error: ErrorReport): { type: typeof FINAL_LINE_TYPES.error; error: ErrorReport } {
  return { type: FINAL_LINE_TYPES.error, error };
}
