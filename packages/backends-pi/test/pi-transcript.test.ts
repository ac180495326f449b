import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TranscriptEvent } from '@skillopt/contract';
import { classifyPiFailure, readPiTranscript, usageFromPi } from '../src/index';
import { piAssistantMessage, piTranscript } from './fake-pi';
import { CLI_TRANSCRIPTS } from '../../../testdata/paths';

const fixture = (name: string): TranscriptEvent[] =>
  readFileSync(path.join(CLI_TRANSCRIPTS, 'pi', name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TranscriptEvent);

function read(events: readonly TranscriptEvent[]) {
  const translation = readPiTranscript();
  for (const event of events) translation.readEvent(event);
  return translation.finish();
}

/** A session file's entries as the `message_end` events `--mode json` prints for the same messages. */
const asMessageEnds = (entries: readonly TranscriptEvent[]): TranscriptEvent[] =>
  entries.filter((entry) => entry.type === 'message').map((entry) => ({ type: 'message_end', message: entry.message }));

describe("reading Pi's --mode json events", () => {
  it('reads the answer and the usage of the fixture pi 0.73.1 printed, counting its one request once (message_update partials are not counted)', () => {
    expect(read(fixture('stdout-mode-json.jsonl'))).toEqual({ finalText: 'hi', usage: { inputTokens: 11, outputTokens: 3 } });
  });

  it('sums the usage of every request of a tool round trip and answers with the last message, not the tool call', () => {
    expect(read(asMessageEnds(fixture('sessions/--home-user-project--/session-tool-roundtrip.jsonl')))).toEqual({
      finalText: 'hi',
      usage: { inputTokens: 22, outputTokens: 6 },
    });
  });

  it('counts the prompt read from and written to the cache inside inputTokens, each also on its own', () => {
    expect(usageFromPi({ input: 30, output: 7, cacheRead: 10, cacheWrite: 5 })).toEqual({
      inputTokens: 45,
      outputTokens: 7,
      cachedInputTokens: 10,
      cacheWriteInputTokens: 5,
    });
    expect(usageFromPi({ input: 30 })).toBeUndefined();
    expect(read(piTranscript('ok', null))).toEqual({ finalText: 'ok' });
  });

  it('takes a message that stopped with error as the failure that ended the run, unless a later request answered', () => {
    const failed = { ...piAssistantMessage('', { input: 5, output: 0 }, 'error'), errorMessage: '503 upstream overloaded' };
    expect(read([{ type: 'message_end', message: failed }])).toEqual({
      usage: { inputTokens: 5, outputTokens: 0 },
      failure: { message: '503 upstream overloaded', code: 'provider-unavailable', retryable: true },
    });
    const aborted = piAssistantMessage('', null, 'aborted');
    expect(read([{ type: 'message_end', message: aborted }]).failure).toEqual({ message: 'the request ended: aborted' });
    expect(read([{ type: 'message_end', message: failed }, ...piTranscript('recovered')]).failure).toBeUndefined();
  });

  it("classifies Pi's error messages by the provider's status, then by their words", () => {
    expect(classifyPiFailure('401 Incorrect API key provided')).toMatchObject({ code: 'provider-authentication', retryable: false });
    expect(classifyPiFailure('404 The model `x` does not exist')).toMatchObject({ code: 'model-not-found', retryable: false });
    expect(classifyPiFailure('429 Rate limit reached')).toMatchObject({ code: 'provider-rate-limited', retryable: true });
    expect(classifyPiFailure('429 You exceeded your current quota')).toMatchObject({ code: 'provider-quota-exceeded', retryable: false });
    expect(classifyPiFailure('400 Unsupported parameter')).toMatchObject({ code: 'provider-bad-request', retryable: false });
    expect(classifyPiFailure('Connection error.')).toMatchObject({ code: 'provider-connection', retryable: true });
    expect(classifyPiFailure('Request was aborted')).toEqual({ message: 'Request was aborted' });
  });
});
