import { randomUUID } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { prepareFakeHarness, type FakeHarnessInvocation, type FakeHarnessScenario } from '@skillopt/backends-kit/testing';

/** A fake `codex` command for one scenario, and where to read what it was given. */
export interface FakeCodex {
  command: string;
  /** What the fake recorded of its run: argv (without the scenario file), cwd, stdin, variable names, files. */
  invocation(): Promise<FakeHarnessInvocation>;
  /** HOME and CODEX_HOME as the process saw them, and whether CODEX_HOME existed then. */
  homes(): Promise<{ home: string; codexHome: string; codexHomeExisted: boolean }>;
  /** The JSON Schema file's text, when the run was given `--output-schema`. */
  outputSchema(): Promise<string>;
}

/**
 * Backends-kit's fake harness behind a shell script that takes Codex's argument vector: it notes
 * the homes and copies the output schema (both gone once the run ends), then plays `scenario`.
 */
export async function fakeCodex(directory: string, scenario: FakeHarnessScenario = {}): Promise<FakeCodex> {
  const id = randomUUID();
  const recordFile = path.join(directory, `invocation-${id}.json`);
  const homesFile = path.join(directory, `homes-${id}.txt`);
  const schemaFile = path.join(directory, `schema-${id}.json`);
  const { command, args } = await prepareFakeHarness(directory, { recordInvocationTo: recordFile, ...scenario });
  const script = path.join(directory, `codex-${id}`);
  await writeFile(
    script,
    [
      '#!/bin/sh',
      `if [ -d "$CODEX_HOME" ]; then existed=yes; else existed=no; fi`,
      `printf '%s\\n%s\\n%s\\n' "$HOME" "$CODEX_HOME" "$existed" > '${homesFile}'`,
      'previous=""',
      `for argument in "$@"; do if [ "$previous" = "--output-schema" ]; then cp "$argument" '${schemaFile}'; fi; previous="$argument"; done`,
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
    async homes() {
      const [home = '', codexHome = '', existed = ''] = (await readFile(homesFile, 'utf8')).split('\n');
      return { home, codexHome, codexHomeExisted: existed === 'yes' };
    },
    outputSchema: () => readFile(schemaFile, 'utf8'),
  };
}

/** The transcript of a Codex run that answers `answer`, as `codex exec --json` prints it. */
export function codexTranscript(answer: string, usage = { input_tokens: 40, cached_input_tokens: 10, output_tokens: 7, reasoning_output_tokens: 2 }) {
  return [
    { type: 'thread.started', thread_id: 'thread-1' },
    { type: 'turn.started' },
    {
      type: 'item.completed',
      item: { id: 'item_1', type: 'command_execution', command: "/bin/bash -lc 'cat task.md'", aggregated_output: 'x', exit_code: 0, status: 'completed' },
    },
    { type: 'item.completed', item: { id: 'item_2', type: 'agent_message', text: answer } },
    { type: 'turn.completed', usage: { cache_write_input_tokens: 0, ...usage } },
  ];
}
