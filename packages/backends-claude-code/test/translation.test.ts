import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createCostCalculator } from '@skillopt/backends-kit';
import type { TranscriptEvent } from '@skillopt/contract';
import { priceTable, readClaudeTranscript, usageFromModelUsage, usageFromResultUsage } from '../src/index';
import { FIXTURES } from './fake-claude';

function eventsOf(file: string): TranscriptEvent[] {
  return readFileSync(path.join(FIXTURES, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TranscriptEvent);
}

function translate(events: readonly TranscriptEvent[]) {
  const translation = readClaudeTranscript();
  for (const event of events) translation.readEvent(event);
  return translation.finish();
}

describe('the transcript translator on the real CLI’s output (shared fixtures)', () => {
  it('reads stream-json: the answer and the per-model usage of the result event', () => {
    expect(translate(eventsOf('stdout-stream-json.jsonl'))).toEqual({
      finalText: 'hi',
      usage: { inputTokens: 11, outputTokens: 3, cachedInputTokens: 0, cacheWriteInputTokens: 0 },
    });
  });

  it('reads --output-format json (a tool round trip summed over two model calls)', () => {
    expect(translate(eventsOf('stdout-print-json.jsonl'))).toEqual({
      finalText: 'hi',
      usage: { inputTokens: 22, outputTokens: 6, cachedInputTokens: 0, cacheWriteInputTokens: 0 },
    });
  });

  it('takes the structured output of a --json-schema run, not the result string', () => {
    const outcome = translate(eventsOf('stdout-print-json-schema.jsonl'));
    expect(JSON.parse(outcome.finalText ?? '')).toEqual({ content: 'hi', tool_calls: [] });
  });

  it('reads the session transcript Claude Code writes: the last assistant text, no usage', () => {
    const events = eventsOf('projects/-home-user-project/session-tool-roundtrip.jsonl');
    expect(events.filter((event) => event.type === 'assistant')).toHaveLength(2);
    expect(translate(events)).toEqual({ finalText: 'hi' });
  });

  it('turns a result with is_error into a failure classified by its API status, never an answer', () => {
    const base = eventsOf('stdout-print-json.jsonl')[0] as TranscriptEvent;
    const failed = (status: number | null, result: string) => translate([{ ...base, is_error: true, api_error_status: status, result }]).failure;
    expect(failed(401, 'Invalid API key · Fix external API key')).toEqual({
      message: 'Invalid API key · Fix external API key',
      code: 'provider-authentication',
      retryable: false,
    });
    expect(failed(404, 'model: claude-x')).toMatchObject({ code: 'model-not-found', retryable: false });
    expect(failed(400, 'thinking.type')).toMatchObject({ code: 'provider-bad-request', retryable: false });
    expect(failed(429, 'rate limited')).toMatchObject({ code: 'provider-rate-limited', retryable: true });
    expect(failed(529, 'overloaded')).toMatchObject({ code: 'provider-unavailable', retryable: true });
    expect(failed(null, 'API Error: Connection error.')).toMatchObject({ code: 'process-crashed', retryable: true });
    expect(translate([{ ...base, is_error: true, api_error_status: 401 }]).finalText).toBeUndefined();
  });

  it('gives the last assistant text when the result event never came, and nothing for an empty stream', () => {
    const assistant = eventsOf('stdout-stream-json.jsonl')[1] as TranscriptEvent;
    expect(translate([assistant])).toEqual({ finalText: 'hi' });
    expect(translate([])).toEqual({});
  });
});

describe('usage', () => {
  const modelUsage = {
    'claude-sonnet-4-6': { inputTokens: 100, outputTokens: 40, cacheReadInputTokens: 3000, cacheCreationInputTokens: 500, costUSD: 99 },
    'claude-haiku-4-5': { inputTokens: 20, outputTokens: 5, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, costUSD: 99 },
  };

  it('sums modelUsage over models, with cache reads and writes inside inputTokens and as their own fields', () => {
    expect(usageFromModelUsage(modelUsage)).toEqual({ inputTokens: 3620, outputTokens: 45, cachedInputTokens: 3000, cacheWriteInputTokens: 500 });
    expect(usageFromModelUsage(undefined)).toBeUndefined();
    expect(usageFromModelUsage({})).toBeUndefined();
  });

  it('falls back to the summed snake_case usage', () => {
    expect(usageFromResultUsage({ input_tokens: 4, output_tokens: 2, cache_read_input_tokens: 10, cache_creation_input_tokens: 6 })).toEqual({
      inputTokens: 20,
      outputTokens: 2,
      cachedInputTokens: 10,
      cacheWriteInputTokens: 6,
    });
    expect(usageFromResultUsage({ output_tokens: 2 })).toBeUndefined();
  });

  it('is priced from our table, not from the CLI’s costUSD', () => {
    const usage = usageFromModelUsage({ 'claude-sonnet-4-6': modelUsage['claude-sonnet-4-6'] });
    const cost = createCostCalculator(priceTable).costOf('claude-code', 'claude-sonnet-4-6', usage ?? { inputTokens: 0, outputTokens: 0 });
    // 100 plain input at $3, 500 cache writes at $3.75, 3000 cache reads at $0.30, 40 out at $15 per million.
    expect(usage).toMatchObject({ inputTokens: 3600, cachedInputTokens: 3000, cacheWriteInputTokens: 500 });
    expect(cost?.totalUsd).toBeCloseTo((100 * 3 + 500 * 3.75 + 3000 * 0.3 + 40 * 15) / 1_000_000, 12);
    expect(cost?.estimated).toBe(false);
    for (const price of priceTable) {
      expect(price).toMatchObject({ provider: 'claude-code', source: expect.stringMatching(/^https:\/\//) });
      expect(price.cachedInputUsdPerMillionTokens).toBeCloseTo(price.inputUsdPerMillionTokens / 10, 10);
      expect(price.cacheWriteInputUsdPerMillionTokens).toBeCloseTo(price.inputUsdPerMillionTokens * 1.25, 10);
    }
  });
});
