import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TranscriptEvent } from '@skillopt/contract';
import { classifyCopilotFailure, readCopilotTranscript, usageFromReport } from '../src/index';
import { CLI_TRANSCRIPTS } from '../../../testdata/paths';

const fixture = (name: string) => readFileSync(path.join(CLI_TRANSCRIPTS, 'copilot', name), 'utf8');
const events = (text: string): TranscriptEvent[] =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TranscriptEvent);

describe("the reader of Copilot's JSON lines and usage report", () => {
  it('reads the recorded tool round trip: the answer after the tool call, the tokens of both model requests from the report', () => {
    const report = JSON.parse(fixture('usage-output-file.jsonl')) as unknown;
    const translation = readCopilotTranscript(() => report);
    for (const event of events(fixture('stdout-output-format-json.jsonl'))) translation.readEvent(event);
    // The mock served 11 input and 3 output tokens per request, and the run made two.
    expect(translation.finish()).toEqual({ finalText: 'hi', usage: { inputTokens: 22, outputTokens: 6, cachedInputTokens: 0, cacheWriteInputTokens: 0 } });
  });

  it('reports no usage without a report, so the flow estimates it; and no answer from a turn that only called tools', () => {
    const translation = readCopilotTranscript();
    const recorded = events(fixture('stdout-output-format-json.jsonl'));
    const toolTurn = recorded.findIndex((event) => event.type === 'tool.execution_start');
    for (const event of recorded.slice(0, toolTurn)) translation.readEvent(event);
    expect(translation.finish()).toEqual({});
  });

  it('sums the models of a report (sub agents too) and skips a model without counts', () => {
    const report = {
      modelMetrics: {
        main: { usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 60, cacheWriteTokens: 5, reasoningTokens: 4 } },
        helper: { usage: { inputTokens: 20, outputTokens: 2 } },
        broken: { usage: { inputTokens: 'many' } },
      },
    };
    expect(usageFromReport(report)).toEqual({ inputTokens: 120, outputTokens: 12, cachedInputTokens: 60, cacheWriteInputTokens: 5, reasoningTokens: 4 });
    expect(usageFromReport({ modelMetrics: {} })).toBeUndefined();
    expect(usageFromReport('text')).toBeUndefined();
  });

  it('keeps the session error that ended the run, whatever answer came before it', () => {
    const translation = readCopilotTranscript();
    translation.readEvent({ type: 'assistant.message', data: { content: 'partial' } });
    translation.readEvent({ type: 'session.error', data: { errorType: 'query', statusCode: 404, message: "Model 'x' not found (HTTP 404)." } });
    expect(translation.finish()).toMatchObject({ finalText: 'partial', failure: { code: 'model-not-found', retryable: false } });
  });

  it("classifies Copilot's session errors by status code and error type", () => {
    const classify = (statusCode: number | undefined, errorType: string, message = 'failed') =>
      classifyCopilotFailure({ errorType, message, ...(statusCode === undefined ? {} : { statusCode }) });
    expect(classify(401, 'authentication')).toMatchObject({ code: 'provider-authentication', retryable: false });
    expect(classify(undefined, 'authentication')).toMatchObject({ code: 'provider-authentication', retryable: false });
    expect(classify(403, 'query')).toMatchObject({ code: 'provider-authentication', retryable: false });
    expect(classify(404, 'query')).toMatchObject({ code: 'model-not-found', retryable: false });
    expect(classify(400, 'query')).toMatchObject({ code: 'provider-bad-request', retryable: false });
    expect(classify(429, 'rate_limit', 'retried 5 times; Last error: 429')).toMatchObject({ code: 'provider-rate-limited', retryable: true });
    expect(classify(429, 'rate_limit', 'You exceeded your current quota')).toMatchObject({ code: 'provider-quota-exceeded', retryable: false });
    expect(classify(500, 'query')).toMatchObject({ code: 'provider-unavailable', retryable: true });
    expect(classify(408, 'query')).toMatchObject({ code: 'provider-timeout', retryable: true });
    expect(classify(undefined, 'query', 'fetch failed: ECONNREFUSED 127.0.0.1:9')).toMatchObject({ code: 'provider-connection', retryable: true });
    expect(classify(undefined, 'query', 'something odd')).toEqual({ message: 'something odd' });
    expect(classifyCopilotFailure({})).toEqual({ message: 'Copilot ended with a session error' });
  });
});
