import { randomUUID } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { prepareFakeHarness, type FakeHarnessInvocation, type FakeHarnessScenario } from '@skillopt/backends-kit/testing';

/** A fake `copilot` command for one scenario, and where to read what it was given. */
export interface FakeCopilot {
  command: string;
  /** What the fake recorded of its run: argv (without the scenario file), cwd, stdin, variable names, files. */
  invocation(): Promise<FakeHarnessInvocation>;
  /** COPILOT_HOME and HOME as the process saw them, and whether COPILOT_HOME existed then. */
  homes(): Promise<{ home: string; copilotHome: string; copilotHomeExisted: boolean }>;
}

export interface FakeCopilotScenario extends FakeHarnessScenario {
  /** What it writes to the `--usage-output-file` it was given before it plays the transcript; absent: nothing. */
  usageReport?: unknown;
}

/**
 * Backends-kit's fake harness behind a shell script that takes Copilot's argument vector: it notes
 * the homes, writes the scenario's usage report where `--usage-output-file` says, then plays the scenario.
 */
export async function fakeCopilot(directory: string, scenario: FakeCopilotScenario = {}): Promise<FakeCopilot> {
  const id = randomUUID();
  const recordFile = path.join(directory, `invocation-${id}.json`);
  const homesFile = path.join(directory, `homes-${id}.txt`);
  const reportFile = path.join(directory, `usage-report-${id}.json`);
  const { usageReport, ...harnessScenario } = scenario;
  if (usageReport !== undefined) await writeFile(reportFile, typeof usageReport === 'string' ? usageReport : JSON.stringify(usageReport));
  const { command, args } = await prepareFakeHarness(directory, { recordInvocationTo: recordFile, ...harnessScenario });
  const script = path.join(directory, `copilot-${id}`);
  await writeFile(
    script,
    [
      '#!/bin/sh',
      `if [ -d "$COPILOT_HOME" ]; then existed=yes; else existed=no; fi`,
      `printf '%s\\n%s\\n%s\\n' "$HOME" "$COPILOT_HOME" "$existed" > '${homesFile}'`,
      'previous=""',
      usageReport === undefined
        ? ':'
        : `for argument in "$@"; do if [ "$previous" = "--usage-output-file" ]; then cp '${reportFile}' "$argument"; fi; previous="$argument"; done`,
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
      const [home = '', copilotHome = '', existed = ''] = (await readFile(homesFile, 'utf8')).split('\n');
      return { home, copilotHome, copilotHomeExisted: existed === 'yes' };
    },
  };
}

/** The stdout of a Copilot run that called its shell once and then answered `answer`, as `--output-format json` prints it. */
export function copilotTranscript(answer: string) {
  return [
    { type: 'session.tools_updated', data: { model: 'sim-target' }, ephemeral: true },
    { type: 'user.message', data: { content: 'Read task.md' } },
    { type: 'assistant.turn_start', data: { turnId: '0' } },
    {
      type: 'assistant.message',
      data: { content: '', toolRequests: [{ toolCallId: 'call_1', name: 'bash', arguments: { command: 'cat task.md' }, type: 'function' }] },
    },
    { type: 'tool.execution_complete', data: { toolCallId: 'call_1', success: true, result: { content: 'What is 2+2?' } } },
    { type: 'assistant.turn_end', data: { turnId: '0' } },
    { type: 'assistant.message', data: { content: answer, toolRequests: [] } },
    { type: 'assistant.idle', data: {}, ephemeral: true },
    { type: 'result', sessionId: 'session-1', exitCode: 0, usage: { premiumRequests: 0 } },
  ];
}

/** A usage report as `--usage-output-file` writes it, for one model. */
export function usageReport(model = 'sim-target', usage = { inputTokens: 40, outputTokens: 7, cacheReadTokens: 10, cacheWriteTokens: 2 }) {
  return { totalPremiumRequestCost: 0, modelMetrics: { [model]: { requests: { count: 2, cost: 0 }, usage } } };
}
