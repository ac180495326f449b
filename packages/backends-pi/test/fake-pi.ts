import { randomUUID } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { prepareFakeHarness, type FakeHarnessInvocation, type FakeHarnessScenario } from '@skillopt/backends-kit/testing';

/** What the fake saw of the run's own folders, which are gone once the run ends. */
export interface FakePiState {
  home: string;
  agentDirectory: string;
  /** models.json and settings.json of the agent directory, parsed. */
  models: Record<string, unknown>;
  settings: Record<string, unknown>;
  /** The text of the `--system-prompt` file, when there was one. */
  systemPrompt: string | undefined;
}

/** A fake `pi` command for one scenario, and where to read what it was given. */
export interface FakePi {
  command: string;
  /** What the fake recorded of its run: argv (without the scenario file), cwd, stdin, variable names, files. */
  invocation(): Promise<FakeHarnessInvocation>;
  state(): Promise<FakePiState>;
}

/**
 * Backends-kit's fake harness behind a shell script that takes Pi's argument vector: it copies the
 * agent directory's files and the system prompt file, then plays `scenario`.
 */
export async function fakePi(directory: string, scenario: FakeHarnessScenario = {}): Promise<FakePi> {
  const id = randomUUID();
  const recordFile = path.join(directory, `invocation-${id}.json`);
  const homesFile = path.join(directory, `homes-${id}.txt`);
  const modelsCopy = path.join(directory, `models-${id}.json`);
  const settingsCopy = path.join(directory, `settings-${id}.json`);
  const systemCopy = path.join(directory, `system-${id}.md`);
  const { command, args } = await prepareFakeHarness(directory, { recordInvocationTo: recordFile, ...scenario });
  const script = path.join(directory, `pi-${id}`);
  await writeFile(
    script,
    [
      '#!/bin/sh',
      `printf '%s\\n%s\\n' "$HOME" "$PI_CODING_AGENT_DIR" > '${homesFile}'`,
      `cp "$PI_CODING_AGENT_DIR/models.json" '${modelsCopy}'`,
      `cp "$PI_CODING_AGENT_DIR/settings.json" '${settingsCopy}'`,
      'previous=""',
      `for argument in "$@"; do if [ "$previous" = "--system-prompt" ]; then cp "$argument" '${systemCopy}'; fi; previous="$argument"; done`,
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
    async state() {
      const [home = '', agentDirectory = ''] = (await readFile(homesFile, 'utf8')).split('\n');
      return {
        home,
        agentDirectory,
        models: JSON.parse(await readFile(modelsCopy, 'utf8')) as Record<string, unknown>,
        settings: JSON.parse(await readFile(settingsCopy, 'utf8')) as Record<string, unknown>,
        systemPrompt: await readFile(systemCopy, 'utf8').catch(() => undefined),
      };
    },
  };
}

/** Token counts of a test message, as Pi names them; `null`: a message without usage. */
export interface PiTestUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

const ZERO_COST = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };

/** An assistant message of Pi's, as its `message_end` prints it. */
export function piAssistantMessage(text: string, usage: PiTestUsage | null, stopReason = 'stop') {
  return {
    role: 'assistant',
    content: text === '' ? [] : [{ type: 'text', text }],
    api: 'openai-completions',
    provider: 'skillopt',
    model: 'gpt-5.1',
    ...(usage === null
      ? {}
      : {
          usage: {
            cacheRead: 0,
            cacheWrite: 0,
            ...usage,
            totalTokens: usage.input + usage.output + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0),
            cost: ZERO_COST,
          },
        }),
    stopReason,
    timestamp: 1,
  };
}

/** The events of a Pi run that answers `answer` in one model request (`usage` null: none printed), as `pi -p --mode json` prints them. */
export function piTranscript(answer: string, usage: PiTestUsage | null = { input: 30, output: 7, cacheRead: 10 }) {
  const user = { role: 'user', content: [{ type: 'text', text: 'the prompt' }], timestamp: 1 };
  const assistant = piAssistantMessage(answer, usage);
  return [
    { type: 'session', version: 3, id: 'session-1', timestamp: '2026-12-01T00:00:00.000Z', cwd: '/w' },
    { type: 'agent_start' },
    { type: 'turn_start' },
    { type: 'message_start', message: user },
    { type: 'message_end', message: user },
    { type: 'message_start', message: { ...assistant, content: [] } },
    { type: 'message_end', message: assistant },
    { type: 'turn_end', message: assistant, toolResults: [] },
    { type: 'agent_end', messages: [user, assistant] },
  ];
}
