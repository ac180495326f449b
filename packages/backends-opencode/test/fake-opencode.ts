import { randomUUID } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { prepareFakeHarness, type FakeHarnessInvocation, type FakeHarnessScenario } from '@skillopt/backends-kit/testing';

/** The variables of OpenCode's state and config the fake notes, as the process saw them. */
export interface FakeOpencodeState {
  home: string;
  xdgConfigHome: string;
  xdgDataHome: string;
  xdgCacheHome: string;
  xdgStateHome: string;
  /** OPENCODE_CONFIG_CONTENT, parsed. */
  config: Record<string, unknown>;
  /** The API key variable the config names, as the child had it. */
  apiKey: string;
}

/** A fake `opencode` command for one scenario, and where to read what it was given. */
export interface FakeOpencode {
  command: string;
  /** What the fake recorded of its run: argv (without the scenario file), cwd, stdin, variable names, files. */
  invocation(): Promise<FakeHarnessInvocation>;
  state(): Promise<FakeOpencodeState>;
}

/**
 * Backends-kit's fake harness behind a shell script that takes OpenCode's argument vector: it notes
 * its HOME, XDG folders, config and key (gone once the run ends), then plays `scenario`.
 */
export async function fakeOpencode(directory: string, scenario: FakeHarnessScenario = {}): Promise<FakeOpencode> {
  const id = randomUUID();
  const recordFile = path.join(directory, `invocation-${id}.json`);
  const stateFile = path.join(directory, `state-${id}.json`);
  const { command, args } = await prepareFakeHarness(directory, { recordInvocationTo: recordFile, ...scenario });
  const script = path.join(directory, `opencode-${id}`);
  const noteState = `const e = process.env; require('node:fs').writeFileSync(${JSON.stringify(stateFile)}, JSON.stringify({ home: e.HOME, xdgConfigHome: e.XDG_CONFIG_HOME, xdgDataHome: e.XDG_DATA_HOME, xdgCacheHome: e.XDG_CACHE_HOME, xdgStateHome: e.XDG_STATE_HOME, config: JSON.parse(e.OPENCODE_CONFIG_CONTENT || '{}'), apiKey: e.SKILLOPT_OPENCODE_API_KEY || '' }))`;
  await writeFile(script, ['#!/bin/sh', `'${process.execPath}' -e "${noteState.replace(/"/g, '\\"')}"`, `exec '${command}' '${args[0]}' "$@"`, ''].join('\n'));
  await chmod(script, 0o755);
  return {
    command: script,
    async invocation() {
      const recorded = JSON.parse(await readFile(recordFile, 'utf8')) as FakeHarnessInvocation;
      return { ...recorded, argv: recorded.argv.slice(1) };
    },
    state: async () => JSON.parse(await readFile(stateFile, 'utf8')) as FakeOpencodeState,
  };
}

const SESSION = 'ses_test';

/** The transcript of an OpenCode run that reads task.md with its read tool and answers `answer`, as `opencode run --format json` prints it. */
export function opencodeTranscript(answer: string, tokens = { input: 30, output: 5, reasoning: 2, cache: { read: 10, write: 0 } }) {
  const step = (messageID: string, reason: string) => [
    { type: 'step_start', sessionID: SESSION, part: { type: 'step-start', messageID } },
    reason === 'tool-calls'
      ? {
          type: 'tool_use',
          sessionID: SESSION,
          part: { type: 'tool', tool: 'read', state: { status: 'completed', input: { filePath: 'task.md' }, output: 'What is 2+2?' }, messageID },
        }
      : { type: 'text', sessionID: SESSION, part: { type: 'text', text: answer, messageID } },
    { type: 'step_finish', sessionID: SESSION, part: { type: 'step-finish', reason, tokens: { total: 0, ...tokens }, cost: 0, messageID } },
  ];
  return [...step('msg_1', 'tool-calls'), ...(answer === '' ? [] : step('msg_2', 'stop'))];
}
