import {
  RUN_EVENT_TYPES,
  readAgentRunRequest,
  readGenerateRequest,
  readRunEvent,
  runEventReaderSchema,
  runEventSchema,
  tolerantSchema,
  usageSchema,
  type RunEvent,
} from '../src/index';
import { z } from 'zod';

const base = { runId: 'run-1', timestamp: '2026-12-01T09:00:00.000Z' };
const hash = '0123456789abcdef';
const position = { epoch: 1, step: 1, globalStep: 1 };

/** One event of every type this release knows, as a producer writes them. */
const everyEvent: RunEvent[] = [
  {
    type: 'run-started',
    ...base,
    runDirectory: '/runs/a',
    environmentId: 'searchqa',
    targetModel: 'sim/t',
    optimizerModel: 'sim/o',
    splitSizes: { train: 2, val: 2, test: 2 },
    epochs: 1,
    stepsPerEpoch: 1,
    resumed: false,
  },
  { type: 'epoch-started', ...base, epoch: 1 },
  { type: 'step-started', ...base, ...position, itemIds: ['a'], learningRate: 2 },
  { type: 'item-rolled-out', ...base, phase: 'train', skillHash: hash, itemId: 'a', sampleIndex: 0, hard: 1, soft: 1, cached: false, completed: 1, total: 1 },
  { type: 'edits-proposed', ...base, ...position, stage: 'reflect', count: 3 },
  { type: 'stage-failed', ...base, stage: 'reflect', prompt: 'reflect-failure', reason: 'no JSON', epoch: 1, globalStep: 1 },
  { type: 'edit-refused', ...base, epoch: 1, step: 1, globalStep: 1, stage: 'optimize', reason: 'it changes a protected region', excerpt: '- A kept note.' },
  { type: 'candidate-evaluated', ...base, ...position, stage: 'step', candidateHash: hash, candidateScore: 0.5, incumbentScore: 0.25, itemsEvaluated: 4 },
  { type: 'gate-decided', ...base, ...position, accepted: true, strategy: 'strict', reason: 'higher', candidateScore: 0.5, incumbentScore: 0.25 },
  { type: 'step-finished', ...base, ...position, accepted: true, bestScore: 0.5, excludedItems: 0 },
  { type: 'epoch-finished', ...base, epoch: 1, bestScore: 0.5 },
  {
    type: 'usage-recorded',
    ...base,
    role: 'target',
    purpose: 'rollout',
    provider: 'sim',
    modelId: 'sim-target',
    usage: { inputTokens: 3, outputTokens: 2 },
    costUsd: null,
    cacheHit: false,
    latencyMs: 1,
    warnings: [{ type: 'unknown-field', field: 'seed', message: 'ignored' }],
  },
  { type: 'rollout-jobs-counted', ...base, queued: 3, workers: [{ worker: 'host-a:12', running: 2, done: 40 }] },
  { type: 'run-stopped', ...base, reason: 'aborted', message: 'Ctrl-C', resumeCommand: 'skillopt train --resume /runs/a' },
  { type: 'run-finished', ...base, baselineScore: 0.25, bestScore: 0.5, acceptedCandidates: 1, rejectedCandidates: 0, bestSkillPath: '/runs/a/best_skill.md' },
];

/** Adds a field a newer producer might write, at the top and inside every nested object. */
function withExtraFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withExtraFields);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = { fromTheFuture: { note: 'kept' } };
  for (const [key, item] of Object.entries(value)) copy[key] = withExtraFields(item);
  return copy;
}

describe('tolerant readers', () => {
  it('has an example of every event type, and the producer schema is strict about each', () => {
    expect(new Set(everyEvent.map((event) => event.type))).toEqual(new Set(RUN_EVENT_TYPES));
    for (const event of everyEvent) {
      expect(runEventSchema.safeParse(event).success).toBe(true);
      expect(runEventSchema.safeParse({ ...event, fromTheFuture: 1 }).success).toBe(false);
    }
  });

  it('reads every event complete when every object in it carries fields it does not know', () => {
    for (const event of everyEvent) {
      const extended = withExtraFields(event);
      const reading = readRunEvent(extended);
      expect(reading).toEqual({ kind: 'event', event: extended });
    }
  });

  it('skips an event of a type from the future, and tells it apart from a damaged line', () => {
    expect(readRunEvent({ ...base, type: 'skill-deployed', target: 'production' })).toEqual({ kind: 'unknown-type', type: 'skill-deployed' });
    expect(readRunEvent({ ...base, type: 'gate-decided' })).toMatchObject({ kind: 'malformed' });
    expect(readRunEvent('gate-decided')).toEqual({ kind: 'malformed', reason: 'not a JSON object' });
    expect(readRunEvent({ ...base })).toEqual({ kind: 'malformed', reason: 'no event type' });
  });

  it('accepts a word a newer producer added to a vocabulary, which the producer schema refuses', () => {
    const event = { type: 'item-rolled-out', ...base, phase: 'warm-up', skillHash: hash, itemId: 'a', sampleIndex: 0, cached: false, completed: 1, total: 1 };
    expect(runEventSchema.safeParse(event).success).toBe(false);
    expect(runEventReaderSchema.safeParse(event).success).toBe(true);
  });

  it('keeps literals and required fields strict in the reader', () => {
    expect(tolerantSchema(usageSchema).safeParse({ inputTokens: 1 }).success).toBe(false);
    const reader = tolerantSchema(z.strictObject({ kind: z.literal('a'), values: z.array(z.strictObject({ n: z.int() })) }));
    expect(reader.safeParse({ kind: 'b', values: [] }).success).toBe(false);
    expect(reader.parse({ kind: 'a', values: [{ n: 1, extra: true }], more: 'x' })).toEqual({ kind: 'a', values: [{ n: 1, extra: true }], more: 'x' });
  });
});

describe('reading a generate request', () => {
  const messages = [{ role: 'user' as const, content: 'hi' }];

  it('answers a request with fields it does not know, leaving them out and naming each in a warning', () => {
    const signal = new AbortController().signal;
    const reading = readGenerateRequest({ messages: [{ role: 'user', content: 'hi', name: 'ann' }], purpose: 'rollout', seed: 7, signal });
    expect(reading).toEqual({
      ok: true,
      request: { messages, purpose: 'rollout', signal },
      warnings: [
        expect.objectContaining({ type: 'unknown-field', field: 'messages.0.name' }),
        expect.objectContaining({ type: 'unknown-field', field: 'seed' }),
      ],
    });
    if (reading.ok) expect(reading.request.signal).toBe(signal);
  });

  it('passes a request the contract knows through untouched, without warnings', () => {
    const request = { messages, purpose: 'reflect', temperature: 0.2 };
    const reading = readGenerateRequest(request);
    expect(reading).toEqual({ ok: true, request, warnings: [] });
    if (reading.ok) expect(reading.request).toBe(request);
  });

  it('reports fields of the wrong type as problems, not warnings', () => {
    expect(readGenerateRequest({ messages, purpose: 'rollout', temperature: 'hot', seed: 1 })).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^temperature: /)],
    });
  });
});

describe('reading an agent run request', () => {
  const request = { skill: '# Skill', prompt: 'Fix the failing test.', workspace: '/tmp/run-1', timeoutMs: 60_000, purpose: 'rollout' };

  it('passes a request the contract knows through untouched', () => {
    const reading = readAgentRunRequest(request);
    expect(reading).toEqual({ ok: true, request, warnings: [] });
    if (reading.ok) expect(reading.request).toBe(request);
  });

  it('leaves out fields it does not know and names each in a warning, keeping the signal and file bytes by reference', () => {
    const signal = new AbortController().signal;
    const bytes = new Uint8Array([1, 2, 3]);
    const reading = readAgentRunRequest({ ...request, signal, files: [{ path: 'data.bin', content: bytes }], sandbox: 'strict' });
    expect(reading).toEqual({
      ok: true,
      request: { ...request, signal, files: [{ path: 'data.bin', content: bytes }] },
      warnings: [expect.objectContaining({ type: 'unknown-field', field: 'sandbox', message: expect.stringContaining('this runner') })],
    });
    if (reading.ok) {
      expect(reading.request.signal).toBe(signal);
      expect(reading.request.files?.[0]?.content).toBe(bytes);
    }
  });

  it('reports fields of the wrong type, and files that leave the workspace, as problems', () => {
    expect(readAgentRunRequest({ ...request, timeoutMs: -1 })).toEqual({ ok: false, problems: [expect.stringMatching(/^timeoutMs: /)] });
    expect(readAgentRunRequest({ ...request, files: [{ path: '../escape.txt', content: 'x' }] })).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^files\.0\.path: workspace file paths are relative/)],
    });
  });

  it('reads the isolation and the commands the agent may run, and refuses a command with a path or arguments', () => {
    const confined = { ...request, isolation: 'sandbox', allowedCommands: ['python3'] };
    expect(readAgentRunRequest(confined)).toEqual({ ok: true, request: confined, warnings: [] });
    expect(readAgentRunRequest({ ...request, isolation: 'jail' })).toEqual({ ok: false, problems: [expect.stringMatching(/^isolation: /)] });
    expect(readAgentRunRequest({ ...request, allowedCommands: ['/usr/bin/python3'] })).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^allowedCommands\.0: a command is a program name/)],
    });
    expect(readAgentRunRequest({ ...request, allowedCommands: ['python3 -c'] }).ok).toBe(false);
  });
});
