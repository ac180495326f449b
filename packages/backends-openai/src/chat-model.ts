import type { CallWarning, ChatModel, GenerateRequest, GenerateResult } from '@skillopt/contract';
import { acceptGenerateRequest, estimateTokens, isRetryableError, withRetry, withTimeout, type RateLimiter, type RetryOptions } from '@skillopt/backends-kit';
import type OpenAI from 'openai';
import { createClient, type ClientRuntime } from './create-client.js';
import { isAnswerFailure } from './reply-errors.js';
import { buildRequestBody, requestWarnings } from './request-body.js';
import { promptText, readReply } from './reply.js';
import type { ModelCredentials, ResolvedModelSettings } from './resolve-model-settings.js';
import { providerErrorFromSdkFailure } from './sdk-errors.js';

export interface ChatModelRuntime extends ClientRuntime {
  /** Shared by the models of the same server and credential; absent: calls go out at once. */
  limiter?: RateLimiter;
  /** The calls in flight the model declares it handles (its limiter's concurrency). */
  defaultConcurrency?: number;
  /** The waits between attempts (tests inject one to record them). */
  sleep?: RetryOptions['sleep'];
  /** The backoff jitter (tests). */
  random?: RetryOptions['random'];
  /** Told about each retry, for logging: the failed attempt (1-based), the wait and the error. */
  onRetry?: RetryOptions['onRetry'];
}

/** The OpenAI-compatible ChatModel of one role: Chat Completions with retries, timeouts and limits. */
export interface OpenAiChatModel extends ChatModel {
  /** The settings this model resolved to (no secret in them). */
  readonly settings: ResolvedModelSettings;
}

/**
 * A ChatModel over Chat Completions. One generate call is:
 *
 *     withRetry( limiter.run( withTimeout( sdk.create ) ) ) → readReply
 *
 * Retries are outside the limiter, so a backoff does not hold a concurrency slot; each attempt has
 * its own timeout and passes its signal to the SDK, so a timed-out request is really cancelled.
 * Only transport failures are retried here (rate limits with their `retry-after`, 5xx, 408, 409,
 * broken connections, timeouts, unreadable bodies); an empty, refused or malformed answer is thrown
 * at once, retryable for core. The usage returned is the successful attempt's alone, so it is
 * counted once however many attempts failed before.
 */
export function createOpenAiChatModel(settings: ResolvedModelSettings, credentials: ModelCredentials, runtime: ChatModelRuntime = {}): OpenAiChatModel {
  let client: Promise<OpenAI> | undefined;
  const clientOnce = (): Promise<OpenAI> => {
    client ??= createClient(settings, credentials, runtime).catch((error: unknown) => {
      client = undefined; // a failed sign-in setup may succeed later (e.g. after `az login`)
      throw error;
    });
    return client;
  };

  async function attempt(request: GenerateRequest, estimatedTokens: number): Promise<GenerateResult> {
    const run = async (settle?: (usage: GenerateResult['usage']) => void): Promise<GenerateResult> => {
      const sdk = await clientOnce();
      const body = buildRequestBody(settings, request);
      // Past the limiter's queue: the request leaves now, so the caller's ledger counts it from here.
      await request.onDispatch?.();
      const { data, requestId } = await withTimeout(
        async (signal) => {
          try {
            const { data: completion, response } = await sdk.chat.completions
              .create(body, { signal, maxRetries: 0, timeout: settings.timeoutMs + 5_000 })
              .withResponse();
            return { data: completion as unknown, requestId: response.headers.get('x-request-id') ?? undefined };
          } catch (error) {
            throw providerErrorFromSdkFailure(error, settings, credentials);
          }
        },
        {
          timeoutMs: settings.timeoutMs,
          provider: settings.provider,
          operationName: 'the chat completion',
          ...(request.signal ? { signal: request.signal } : {}),
        },
      );
      const result = readReply(data, settings, request.messages, requestId);
      settle?.(result.usage);
      return result;
    };
    if (!runtime.limiter) return run();
    return runtime.limiter.run((permit) => run((usage) => permit.settle(usage)), {
      estimatedTokens,
      ...(request.signal ? { signal: request.signal } : {}),
    });
  }

  return {
    specificationVersion: 'v1',
    provider: settings.provider,
    modelId: settings.modelId,
    settings,
    capabilities: {
      tools: true,
      jsonSchemaOutput: settings.jsonResponseFormat,
      streaming: false,
      reportedUsage: true,
      announcesDispatch: true,
    },
    ...(runtime.defaultConcurrency === undefined ? {} : { defaultConcurrency: runtime.defaultConcurrency }),
    async generate(received: GenerateRequest): Promise<GenerateResult> {
      const { request, warnings: unknownFieldWarnings } = acceptGenerateRequest(received, `${settings.provider} ${settings.modelId}`);
      const warnings: CallWarning[] = [...unknownFieldWarnings, ...requestWarnings(settings, request)];
      const estimatedTokens = estimateTokens(promptText(request.messages)) + (request.maxOutputTokens ?? settings.maxTokens ?? 1_000);
      const result = await withRetry(() => attempt(request, estimatedTokens), {
        maxAttempts: settings.maxAttempts,
        shouldRetry: (error) => !isAnswerFailure(error) && isRetryableError(error),
        ...(request.signal ? { signal: request.signal } : {}),
        ...(runtime.sleep ? { sleep: runtime.sleep } : {}),
        ...(runtime.random ? { random: runtime.random } : {}),
        ...(runtime.onRetry ? { onRetry: runtime.onRetry } : {}),
      });
      return warnings.length > 0 ? { ...result, warnings } : result;
    },
  };
}
