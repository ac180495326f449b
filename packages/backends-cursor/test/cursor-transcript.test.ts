import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TranscriptEvent } from '@skillopt/contract';
import { classifyCursorFailure, readCursorTranscript, usageFromCursor } from '../src/index';

function translate(fixture: string) {
  const translation = readCursorTranscript();
  const lines = readFileSync(path.join(__dirname, 'fixtures', fixture), 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  for (const line of lines) translation.readEvent(JSON.parse(line) as TranscriptEvent);
  return translation.finish();
}

describe('reading what cursor-agent prints', () => {
  it("answers with the result event's text after a tool round trip, and reads its usage (cache reads and writes inside the input)", () => {
    expect(translate('stream-json-tool-round-trip.jsonl')).toEqual({
      finalText: '<answer>Paris</answer>',
      usage: { inputTokens: 812 + 256 + 64, outputTokens: 41, cachedInputTokens: 256, cacheWriteInputTokens: 64 },
    });
  });

  it("reads --output-format json's lone result the same way, with no usage to report", () => {
    expect(translate('json-result.jsonl')).toEqual({ finalText: 'hi' });
  });

  it('fails closed on an error result: a classified failure and no answer, whatever the assistant said before', () => {
    const outcome = translate('stream-json-error-result.jsonl');
    expect(outcome.finalText).toBeUndefined();
    expect(outcome.failure).toEqual({
      message: 'Model not found: composer-9 is not available for your account',
      code: 'model-not-found',
      retryable: false,
    });
  });

  it('gives no answer for a stream that ended before its result, though an assistant message held one', () => {
    expect(translate('stream-json-interrupted.jsonl')).toEqual({});
  });

  it('takes the last result when there are several, and a non-success subtype as a failure', () => {
    const translation = readCursorTranscript();
    translation.readEvent({ type: 'result', subtype: 'success', is_error: false, result: 'first' });
    translation.readEvent({ type: 'result', subtype: 'error_max_turns', is_error: false });
    expect(translation.finish().failure).toEqual({ message: 'the run ended with an error result (error_max_turns)' });
  });
});

describe('usageFromCursor', () => {
  it('reads camelCase and snake_case counts, and nothing without an input or output count', () => {
    expect(usageFromCursor({ inputTokens: 10, outputTokens: 2 })).toEqual({ inputTokens: 10, outputTokens: 2 });
    expect(usageFromCursor({ input_tokens: 10, output_tokens: 2, cache_read_tokens: 5 })).toEqual({ inputTokens: 15, outputTokens: 2, cachedInputTokens: 5 });
    expect(usageFromCursor({ inputTokens: 10 })).toBeUndefined();
    expect(usageFromCursor({ inputTokens: -1, outputTokens: 2 })).toBeUndefined();
  });
});

describe('classifyCursorFailure', () => {
  it("stops on the original's authentication and configuration markers, retries transient failures, and leaves the rest to the default", () => {
    for (const message of ['Error: Authentication required. Please run cursor-agent login', 'Invalid API key', 'request failed with status 401'])
      expect(classifyCursorFailure(message)).toMatchObject({ code: 'provider-authentication', retryable: false });
    expect(classifyCursorFailure('Invalid model: gpt-9')).toMatchObject({ code: 'model-not-found', retryable: false });
    expect(classifyCursorFailure("error: unknown option '--sandbox'")).toMatchObject({ code: 'provider-bad-request', retryable: false });
    expect(classifyCursorFailure('Rate limit exceeded, try again later')).toMatchObject({ code: 'provider-rate-limited', retryable: true });
    expect(classifyCursorFailure('503 Service Unavailable')).toMatchObject({ code: 'provider-unavailable', retryable: true });
    expect(classifyCursorFailure('connect ECONNREFUSED 1.2.3.4:443')).toMatchObject({ code: 'provider-connection', retryable: true });
    expect(classifyCursorFailure('something odd happened')).toEqual({ message: 'something odd happened' });
  });
});
