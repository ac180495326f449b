import { writeSync } from 'node:fs';
import type { SourceId } from '../harvest/session-record.js';
import { recordSessionEnd } from './record-session-end.js';
import type { SessionEndRecord } from './session-end-record.js';

// A session end's input is a few hundred bytes; anything far larger is not one.
const MAX_HOOK_INPUT_BYTES = 64 << 10;
// The agent waits for its hooks as a session closes, so an input that never comes must not hold
// it forever. The agent writes the input at once, yet a loaded machine can take seconds to let
// the hook read it: the default leaves room for that, and the variable sets another limit.
const HOOK_INPUT_TIMEOUT_VARIABLE = 'SKILLOPT_SLEEP_HOOK_INPUT_TIMEOUT_MS';
const DEFAULT_HOOK_INPUT_TIMEOUT_MS = 30_000;
// The longest delay setTimeout keeps; a longer one would fire at once.
const LONGEST_TIMER_MS = 2 ** 31 - 1;
const MAX_MESSAGE_CHARACTERS = 200;

export interface SessionEndHookOptions {
  /** Where the hook's JSON input comes from; default this process's stdin. */
  stdin?: NodeJS.ReadableStream | undefined;
  environment?: Readonly<Record<string, string | undefined>> | undefined;
}

/** How long the hook waits for its input: `SKILLOPT_SLEEP_HOOK_INPUT_TIMEOUT_MS`, else 30 s. */
function hookInputTimeoutMs(environment: Readonly<Record<string, string | undefined>>): number {
  const value = environment[HOOK_INPUT_TIMEOUT_VARIABLE]?.trim();
  if (value === undefined || value === '') return DEFAULT_HOOK_INPUT_TIMEOUT_MS;
  const milliseconds = Number(value);
  if (!/^\d+$/.test(value) || milliseconds < 1 || milliseconds > LONGEST_TIMER_MS)
    throw new Error(`${HOOK_INPUT_TIMEOUT_VARIABLE} is not a whole number of milliseconds from 1 to ${LONGEST_TIMER_MS}: ${JSON.stringify(value)}`);
  return milliseconds;
}

/** The whole input, or an error once it is too large or too slow; the stream is let go either way. */
function readHookInput(stdin: NodeJS.ReadableStream & { isTTY?: boolean; destroy?: () => void }, timeoutMs: number): Promise<string> {
  if (stdin.isTTY === true) return Promise.reject(new Error('no hook input: stdin is a terminal'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const finish = (error?: Error) => {
      clearTimeout(timer);
      stdin.removeListener('data', onData);
      stdin.removeListener('end', onEnd);
      stdin.removeListener('error', finish);
      if (error === undefined) resolve(Buffer.concat(chunks).toString('utf8'));
      else {
        // Still open, the stream would keep the hook's process alive.
        stdin.destroy?.();
        reject(error);
      }
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += buffer.length;
      if (bytes > MAX_HOOK_INPUT_BYTES) finish(new Error(`the hook input is longer than ${MAX_HOOK_INPUT_BYTES} bytes`));
      else chunks.push(buffer);
    };
    const onEnd = () => finish();
    const timer = setTimeout(() => finish(new Error(`no hook input within ${timeoutMs} ms (${HOOK_INPUT_TIMEOUT_VARIABLE})`)), timeoutMs);
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', finish);
  });
}

/** The input parsed; JSON.parse's own message quotes the text, which is not for stderr. */
function parseHookInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(text.trim() === '' ? 'the hook input is empty' : 'the hook input is not JSON');
  }
}

/** One short line on stderr, written at once; a closed stderr is no reason to fail. */
function sayWhy(error: unknown): void {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, MAX_MESSAGE_CHARACTERS);
  try {
    writeSync(2, `skillopt-sleep session-end hook: nothing recorded: ${message}\n`);
  } catch {
    // Nowhere to say it.
  }
}

/**
 * What an agent plugin's session-end hook runs: reads the agent's JSON input from stdin and
 * records the session's end (`recordSessionEnd`). It never throws and never sets an exit code: a
 * hook that fails must not trouble the session it ran after. When nothing could be recorded it
 * says why in one line on stderr and returns undefined. It waits for its input at most
 * `SKILLOPT_SLEEP_HOOK_INPUT_TIMEOUT_MS` milliseconds (of `options.environment`, else this
 * process's), 30 s when that is not set.
 */
export async function runSessionEndHook(source: SourceId, options: SessionEndHookOptions = {}): Promise<SessionEndRecord | undefined> {
  try {
    const timeoutMs = hookInputTimeoutMs(options.environment ?? process.env);
    const hookInput = parseHookInput(await readHookInput(options.stdin ?? process.stdin, timeoutMs));
    return await recordSessionEnd({ source, hookInput, environment: options.environment });
  } catch (error) {
    sayWhy(error);
    return undefined;
  }
}
