import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { CLI_TRANSCRIPTS } from '../../../testdata/paths';
import { installFakeHarness, type FakeHarnessInvocation, type FakeHarnessScenario } from '@skillopt/backends-kit/testing';

/** What the real CLI wrote (Claude Code 2.1.197, offline against a model server on loopback). */
export const FIXTURES = path.join(CLI_TRANSCRIPTS, 'claude');

/**
 * A stand-in `claude` executable: a shell script that runs backends-kit's fake harness on one
 * scenario, whatever arguments it is given (they are recorded with the invocation), so the
 * backend's own command line and environment reach a real child process.
 */
export async function fakeClaude(directory: string, scenario: FakeHarnessScenario): Promise<{ path: string; invocation(): Promise<FakeHarnessInvocation> }> {
  const program = await installFakeHarness(directory);
  const id = randomUUID();
  const record = path.join(directory, `invocation-${id}.json`);
  const scenarioFile = path.join(directory, `scenario-${id}.json`);
  await writeFile(scenarioFile, JSON.stringify({ recordInvocationTo: record, ...scenario }), 'utf8');
  const script = path.join(directory, `claude-${id}`);
  await writeFile(script, `#!/bin/sh\nexec "${process.execPath}" "${program}" "${scenarioFile}" "$@"\n`, 'utf8');
  await chmod(script, 0o755);
  return { path: script, invocation: async () => JSON.parse(await readFile(record, 'utf8')) as FakeHarnessInvocation };
}

/** A `result` event as Claude Code prints it, answering `text` with the fixture's usage. */
export function resultEvent(text: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'result',
    subtype: 'success',
    is_error: false,
    num_turns: 1,
    result: text,
    stop_reason: 'end_turn',
    session_id: '45757a86-6dc8-47e5-85f2-f4ca8fe9cf42',
    total_cost_usd: 0.5,
    usage: { input_tokens: 11, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 3 },
    modelUsage: { 'claude-sonnet-4-6': { inputTokens: 11, outputTokens: 3, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, costUSD: 0.5 } },
    permission_denials: [],
    ...overrides,
  };
}
