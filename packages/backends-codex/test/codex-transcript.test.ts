import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TranscriptEvent } from '@skillopt/contract';
import { classifyCodexFailure, readCodexTranscript, usageFromCodex } from '../src/index';
import { CLI_TRANSCRIPTS } from '../../../testdata/paths';

function translate(events: readonly TranscriptEvent[]) {
  const translation = readCodexTranscript();
  for (const event of events) translation.readEvent(event);
  return translation.finish();
}

const fixture = (name: string): TranscriptEvent[] =>
  readFileSync(path.join(CLI_TRANSCRIPTS, 'codex', name), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as TranscriptEvent);

describe("the reader of codex exec --json's events", () => {
  it('reads the recorded tool round trip: the last agent message, the summed usage, the error item only a warning', () => {
    expect(translate(fixture('stdout-exec-json.jsonl'))).toEqual({
      finalText: 'hi',
      usage: { inputTokens: 22, cachedInputTokens: 0, outputTokens: 6, reasoningTokens: 0 },
    });
  });

  it('reads the recorded --output-schema run: the JSON reply as the final text', () => {
    const outcome = translate(fixture('stdout-exec-json-output-schema.jsonl'));
    expect(JSON.parse(outcome.finalText ?? '')).toEqual({ content: 'hi', tool_calls: [] });
    expect(outcome.usage).toEqual({ inputTokens: 11, cachedInputTokens: 0, outputTokens: 3, reasoningTokens: 0 });
  });

  it('takes the last of several agent messages, and sums the usage of several turns', () => {
    const outcome = translate([
      { type: 'item.completed', item: { type: 'agent_message', text: 'Reading the task first.' } },
      { type: 'turn.completed', usage: { input_tokens: 5, output_tokens: 1 } },
      { type: 'item.completed', item: { type: 'agent_message', text: '<answer>4</answer>' } },
      { type: 'turn.completed', usage: { input_tokens: 7, cached_input_tokens: 3, output_tokens: 2, reasoning_output_tokens: 1 } },
    ]);
    expect(outcome).toEqual({ finalText: '<answer>4</answer>', usage: { inputTokens: 12, cachedInputTokens: 3, outputTokens: 3, reasoningTokens: 1 } });
  });

  it('reports the failure that ended the turn, classified; an error the turn got over is no failure', () => {
    const message = 'unexpected status 503 Service Unavailable: overloaded';
    expect(translate([{ type: 'turn.started' }, { type: 'error', message }, { type: 'turn.failed', error: { message } }]).failure).toEqual({
      message,
      code: 'provider-unavailable',
      retryable: true,
    });
    expect(translate([{ type: 'error', message: 'Reconnecting... 1/5' }, ...fixture('stdout-exec-json.jsonl')]).failure).toBeUndefined();
    expect(translate([{ type: 'error', message: 'failed to start: no such provider' }]).failure).toEqual({ message: 'failed to start: no such provider' });
  });

  it('leaves out usage it cannot read, so the flow estimates it and marks it so', () => {
    expect(translate([{ type: 'turn.completed', usage: { input_tokens: 'many' } }]).usage).toBeUndefined();
    expect(usageFromCodex({ input_tokens: 3, output_tokens: -1 })).toBeUndefined();
    expect(usageFromCodex({ input_tokens: 3, output_tokens: 1 })).toEqual({ inputTokens: 3, outputTokens: 1 });
  });
});

describe('classifyCodexFailure', () => {
  it.each([
    ['unexpected status 401 Unauthorized: Incorrect API key provided', 'provider-authentication', false],
    ['unexpected status 403 Forbidden: no access', 'provider-authentication', false],
    ['unexpected status 404 Not Found: model `gpt-x` does not exist', 'model-not-found', false],
    ['unexpected status 400 Bad Request: invalid schema', 'provider-bad-request', false],
    ['unexpected status 429 Too Many Requests: slow down', 'provider-rate-limited', true],
    ['unexpected status 429 Too Many Requests: You exceeded your current quota', 'provider-quota-exceeded', false],
    ['unexpected status 500 Internal Server Error', 'provider-unavailable', true],
    ['unexpected status 408 Request Timeout', 'provider-timeout', true],
    ['stream disconnected before completion: connection reset', 'provider-connection', true],
  ])('%s → %s', (message, code, retryable) => {
    expect(classifyCodexFailure(message)).toEqual({ message, code, retryable });
  });

  it('leaves anything else to the flow: a crashed run, worth another try', () => {
    expect(classifyCodexFailure('thread panicked')).toEqual({ message: 'thread panicked' });
  });
});
