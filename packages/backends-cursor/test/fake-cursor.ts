import { randomUUID } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { prepareFakeHarness, type FakeHarnessInvocation, type FakeHarnessScenario } from '@skillopt/backends-kit/testing';

/** A fake `cursor-agent` for one scenario, and where to read what it was given. */
export interface FakeCursor {
  command: string;
  /** What the fake recorded of its run: argv (without the scenario file), cwd, stdin, variable names, files. */
  invocation(): Promise<FakeHarnessInvocation>;
  /** HOME, CURSOR_CONFIG_DIR and CURSOR_DATA_DIR as the process saw them, and its cli-config.json (all gone once the run ends). */
  runtime(): Promise<{ home: string; configDirectory: string; dataDirectory: string; cliConfig: Record<string, unknown> }>;
}

/**
 * Backends-kit's fake harness behind a shell script that takes Cursor's argument vector: it notes
 * the run's folders and copies its cli-config.json, then plays `scenario`.
 */
export async function fakeCursor(directory: string, scenario: FakeHarnessScenario = {}): Promise<FakeCursor> {
  const id = randomUUID();
  const recordFile = path.join(directory, `invocation-${id}.json`);
  const foldersFile = path.join(directory, `folders-${id}.txt`);
  const configCopy = path.join(directory, `cli-config-${id}.json`);
  const { command, args } = await prepareFakeHarness(directory, { recordInvocationTo: recordFile, ...scenario });
  const script = path.join(directory, `cursor-agent-${id}`);
  await writeFile(
    script,
    [
      '#!/bin/sh',
      `printf '%s\\n%s\\n%s\\n' "$HOME" "$CURSOR_CONFIG_DIR" "$CURSOR_DATA_DIR" > '${foldersFile}'`,
      `cp "$CURSOR_CONFIG_DIR/cli-config.json" '${configCopy}' 2>/dev/null || echo '{}' > '${configCopy}'`,
      `exec '${command}' '${args[0]}' "$@"`,
      '',
    ].join('\n'),
  );
  await chmod(script, 0o755);
  return {
    command: script,
    async invocation() {
      const recorded = JSON.parse(await readFile(recordFile, 'utf8')) as FakeHarnessInvocation;
      return { ...recorded, argv: recorded.argv.slice(1) };
    },
    async runtime() {
      const [home = '', configDirectory = '', dataDirectory = ''] = (await readFile(foldersFile, 'utf8')).split('\n');
      return { home, configDirectory, dataDirectory, cliConfig: JSON.parse(await readFile(configCopy, 'utf8')) as Record<string, unknown> };
    },
  };
}

export const SESSION_ID = '6f1c2f4e-0000-4000-8000-000000000001';

/**
 * The stream of a Cursor run that reads task.md and answers `answer`, as the protocol describes it
 * (`system` init, the prompt echoed, a read tool call started and completed, the assistant's
 * message, the `result`); `usage` on the result when given.
 */
export function cursorTranscript(answer: string, usage?: Record<string, number>) {
  return [
    {
      type: 'system',
      subtype: 'init',
      apiKeySource: 'env',
      cwd: '/home/user/project',
      session_id: SESSION_ID,
      model: 'Composer 2.5',
      permissionMode: 'default',
    },
    { type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'Read task.md.' }] }, session_id: SESSION_ID },
    { type: 'tool_call', subtype: 'started', call_id: 'call-1', tool_call: { readToolCall: { args: { path: 'task.md' } } }, session_id: SESSION_ID },
    {
      type: 'tool_call',
      subtype: 'completed',
      call_id: 'call-1',
      tool_call: { readToolCall: { args: { path: 'task.md' }, result: { success: { content: 'What is 2+2?', totalLines: 1 } } } },
      session_id: SESSION_ID,
    },
    { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: answer }] }, session_id: SESSION_ID },
    {
      type: 'result',
      subtype: 'success',
      is_error: false,
      duration_ms: 1234,
      duration_api_ms: 1234,
      result: answer,
      session_id: SESSION_ID,
      request_id: 'request-1',
      ...(usage ? { usage } : {}),
    },
  ];
}
