import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GenerateRequest, GenerateResult, RolloutContext, Target, ToolCall } from '@skillopt/contract';
import { createFilelessRolloutContextForTests } from '@skillopt/env-kit/testing';

export const REPOSITORY_ROOT = path.join(__dirname, '..', '..', '..');
export const FIXTURE_SPLIT_DIR = path.join(REPOSITORY_ROOT, 'datasets', 'officeqa', 'fixture');
export const FIXTURE_DOCS_DIR = path.join(FIXTURE_SPLIT_DIR, 'docs');
export const DEFAULT_CONFIG_FILE = path.join(REPOSITORY_ROOT, 'configs', 'officeqa', 'default.yaml');

/** The env section that runs on the fixture. */
export const FIXTURE_CONFIG = { split_dir: FIXTURE_SPLIT_DIR, data_dirs: [FIXTURE_DOCS_DIR] };

export function rawItem(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, question: `Question ${id}?`, answer: `Answer ${id}`, category: 'easy', source_files: ['doc.txt'], ...extra };
}

/** A fresh temporary directory, removed by `cleanup`. */
export async function temporaryDirectory(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'env-officeqa-test-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function writeText(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text, 'utf8');
}

export async function writeJson(file: string, value: unknown): Promise<void> {
  await writeText(file, JSON.stringify(value, null, 2));
}

export function contextFor(
  target: Target,
  signal: AbortSignal = new AbortController().signal,
  skill = '# My skill\n\nRule 7: check the unit.\n',
): RolloutContext {
  return createFilelessRolloutContextForTests({ skill, target, signal });
}

let callNumber = 0;
/** A model reply that calls tools. */
export function toolReply(calls: Array<Omit<ToolCall, 'toolCallId'> & { toolCallId?: string }>, text = ''): GenerateResult {
  return {
    text,
    toolCalls: calls.map((call) => ({ toolCallId: call.toolCallId ?? `call-${(callNumber += 1)}`, toolName: call.toolName, input: call.input })),
    usage: { inputTokens: 10, outputTokens: 5 },
    finishReason: 'tool-calls',
  };
}

/** The tool-result outputs of the last tool message of a request. */
export function lastToolResults(request: GenerateRequest): Array<{ output: string; isError?: boolean; toolName: string }> {
  const tool = [...request.messages].reverse().find((message) => message.role === 'tool');
  if (tool === undefined || tool.role !== 'tool') return [];
  return tool.content.map((part) => ({ output: part.output, toolName: part.toolName, ...(part.isError ? { isError: true } : {}) }));
}
