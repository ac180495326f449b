import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TranscriptEvent } from '@skillopt/contract';
import { classifyOpencodeError, readOpencodeTranscript, usageFromOpencodeStep } from '../src/index';
import { CLI_TRANSCRIPTS } from '../../../testdata/paths';

const fixture = (name: string): TranscriptEvent[] =>
  readFileSync(path.join(CLI_TRANSCRIPTS, 'opencode', name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TranscriptEvent);

function read(events: readonly TranscriptEvent[]) {
  const translation = readOpencodeTranscript();
  for (const event of events) translation.readEvent(event);
  return translation.finish();
}

describe('readOpencodeTranscript', () => {
  it("reads the real CLI's tool round trip: the last step's text, the tokens of both steps summed", () => {
    const events = fixture('stdout-run-format-json.jsonl');
    expect(events.map((event) => event.type)).toEqual(['step_start', 'tool_use', 'step_finish', 'step_start', 'text', 'step_finish']);
    // Two model requests of 11 input and 3 output tokens each, as the mock reported them.
    expect(read(events)).toEqual({ finalText: 'hi', usage: { inputTokens: 22, outputTokens: 6 } });
  });

  it('takes the answer from the last step that wrote text, not the words before a tool call', () => {
    const events: TranscriptEvent[] = [
      { type: 'step_start', part: {} },
      { type: 'text', part: { text: 'Let me read the task.' } },
      { type: 'tool_use', part: { tool: 'read', state: { status: 'completed' } } },
      { type: 'step_finish', part: { tokens: { input: 5, output: 1 } } },
      { type: 'step_start', part: {} },
      { type: 'text', part: { text: 'It is' } },
      { type: 'text', part: { text: '<answer>4</answer>' } },
      { type: 'step_finish', part: { tokens: { input: 7, output: 2 } } },
      { type: 'step_start', part: {} },
      { type: 'step_finish', part: { tokens: { input: 1, output: 0 } } },
    ];
    expect(read(events)).toEqual({ finalText: 'It is\n<answer>4</answer>', usage: { inputTokens: 13, outputTokens: 3 } });
  });

  it('reports an error event as the failure, classified by its API status', () => {
    const outcome = read([
      { type: 'step_start', part: {} },
      { type: 'error', error: { name: 'APIError', data: { message: 'Incorrect API key provided', statusCode: 401, isRetryable: false } } },
    ]);
    expect(outcome.finalText).toBeUndefined();
    expect(outcome.usage).toBeUndefined();
    expect(outcome.failure).toEqual({ message: 'APIError: Incorrect API key provided', code: 'provider-authentication', retryable: false });
  });
});

describe('classifyOpencodeError', () => {
  it.each([
    [{ name: 'ProviderAuthError', data: { message: 'no key' } }, 'provider-authentication', false],
    [{ name: 'APIError', data: { message: 'model not found', statusCode: 404 } }, 'model-not-found', false],
    [{ name: 'APIError', data: { message: 'slow down', statusCode: 429 } }, 'provider-rate-limited', true],
    [{ name: 'APIError', data: { message: 'You exceeded your current quota', statusCode: 429 } }, 'provider-quota-exceeded', false],
    [{ name: 'APIError', data: { message: 'bad gateway', statusCode: 502 } }, 'provider-unavailable', true],
    [{ name: 'APIError', data: { message: 'bad field', statusCode: 400 } }, 'provider-bad-request', false],
    [{ name: 'UnknownError', data: { message: 'Unable to connect. Is the computer able to access the url?' } }, 'provider-connection', true],
  ])('%j is %s', (error, code, retryable) => {
    expect(classifyOpencodeError(error)).toMatchObject({ code, retryable });
  });

  it('leaves an error it cannot place to the default: a crashed run', () => {
    expect(classifyOpencodeError({ name: 'MessageAbortedError' })).toEqual({ message: 'MessageAbortedError' });
  });
});

describe('usageFromOpencodeStep', () => {
  it("adds back the cached, cache-written and reasoning tokens OpenCode prints apart, so the counts are the provider's", () => {
    expect(usageFromOpencodeStep({ input: 30, output: 5, reasoning: 2, cache: { read: 10, write: 4 } })).toEqual({
      inputTokens: 44,
      outputTokens: 7,
      cachedInputTokens: 10,
      cacheWriteInputTokens: 4,
      reasoningTokens: 2,
    });
  });

  it('is undefined without an input or output count', () => {
    expect(usageFromOpencodeStep({ output: 3 })).toBeUndefined();
    expect(usageFromOpencodeStep({ input: -1, output: 3 })).toBeUndefined();
  });
});
