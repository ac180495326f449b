import type Anthropic from '@anthropic-ai/sdk';
import { ERROR_CODES, SkillOptError, type ChatModel, type GenerateRequest, type GenerateResult } from '@skillopt/contract';
import { acceptGenerateRequest, isRetryableError, withRetry, withTimeout, type RateLimiter, type RateLimitPermit } from '@skillopt/backends-kit';
import { buildMessageParams, messageParamsWarnings } from './message-params.js';
import { providerErrorFromAttempt } from './provider-error-mapping.js';
import { ANTHROPIC_PROVIDER } from './provider.js';
import { mapReply, type MappedReply } from './reply-result.js';
import type { AnthropicRoleSettings } from './role-settings.js';
import { createThinkingMemory, type ThinkingMemory } from './thinking-memory.js';
import { hasReportedUsage, rateLimitedTokens } from './usage-mapping.js';

/** How retries wait; injectable so tests can record the waits instead of sitting them out. */
export interface RetryTiming {
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Called before each wait: the attempt that failed (1-based), the wait, the error. */
  onRetry?: (attempt: number, delayMs: number, error: unknown) => void;
}

export interface AnthropicChatModelOptions {
  settings: AnthropicRoleSettings;
  /** A client built with `maxRetries: 0`: retrying is withRetry's job alone, so it is counted once. */
  client: Anthropic;
  /** Shared by every model of the role (or of the backend); absent: no limits. */
  limiter?: RateLimiter | undefined;
  retryTiming?: RetryTiming | undefined;
  thinkingMemory?: ThinkingMemory | undefined;
  /** What to cut out of every error message besides anything key-shaped: the client's key, the base URL's secret query values. Default: the client's key. */
  knownSecrets?: readonly string[] | undefined;
  /** The calls in flight the model declares it handles (its limiter's concurrency). */
  defaultConcurrency?: number | undefined;
}

/**
 * A ChatModel over the Messages API (non-streamed). Each call:
 * 1. builds the request once (see buildMessageParams);
 * 2. runs attempts under backends-kit's withRetry, outside the limiter so a backoff holds no slot:
 *    a 429 waits its retry-after, 5xx/529/408/timeouts/broken connections back off, anything else
 *    (401, 403, 404, 400) fails at once;
 * 3. gives each attempt `timeout_ms` (withTimeout aborts the request through its signal);
 * 4. returns the usage of the one attempt that succeeded, so it is counted once however many
 *    attempts failed before it.
 */
/** Claude reads images and calls tools; a JSON Schema is asked for in words; calls are not streamed. */
const ANTHROPIC_CAPABILITIES = Object.freeze({
  images: true,
  tools: true,
  jsonSchemaOutput: false,
  streaming: false,
  reportedUsage: true,
  announcesDispatch: true,
});

export function createAnthropicChatModel(options: AnthropicChatModelOptions): ChatModel {
  const { settings, client, limiter, retryTiming } = options;
  const knownSecrets = options.knownSecrets ?? [client.apiKey ?? undefined];
  const memory = options.thinkingMemory ?? createThinkingMemory();
  const modelId = settings.modelId;

  async function generate(received: GenerateRequest): Promise<GenerateResult> {
    const { request, warnings: unknownFieldWarnings } = acceptGenerateRequest(received, `${ANTHROPIC_PROVIDER}/${modelId}`);
    const warnings = [...unknownFieldWarnings, ...messageParamsWarnings(request)];
    const plan = buildMessageParams(request, settings, memory);

    const attempt = async (permit: RateLimitPermit | undefined): Promise<MappedReply> => {
      // Past the limiter's queue: the request leaves now, so the caller's ledger counts it from here.
      await request.onDispatch?.();
      return withTimeout(
        async (signal) => {
          let body: unknown;
          let requestId: string | null | undefined;
          try {
            const { data, request_id } = await client.messages.create(plan.params, { signal, timeout: settings.timeoutMs, maxRetries: 0 }).withResponse();
            body = data;
            requestId = request_id;
          } catch (error) {
            throw providerErrorFromAttempt(error, modelId, knownSecrets);
          }
          const usage = (body as { usage?: unknown } | null)?.usage;
          permit?.settle(hasReportedUsage(usage) ? rateLimitedTokens(usage) : plan.estimatedTokens);
          return mapReply(body, { modelId, requestId, promptText: () => plan.promptText });
        },
        { timeoutMs: settings.timeoutMs, signal: request.signal, provider: ANTHROPIC_PROVIDER, operationName: `the Messages API call (${modelId})` },
      );
    };

    const reply = await withRetry(
      () => (limiter ? limiter.run((permit) => attempt(permit), { estimatedTokens: plan.estimatedTokens, signal: request.signal }) : attempt(undefined)),
      {
        maxAttempts: settings.maxRetries + 1,
        ...(request.signal ? { signal: request.signal } : {}),
        // A refusal is retryable for core (another sample may answer) but not worth paying for
        // again at once here.
        shouldRetry: (error) => isRetryableError(error) && !(SkillOptError.isInstance(error) && error.code === ERROR_CODES.replyRefused),
        ...(retryTiming?.sleep ? { sleep: retryTiming.sleep } : {}),
        ...(retryTiming?.random ? { random: retryTiming.random } : {}),
        ...(retryTiming?.onRetry ? { onRetry: retryTiming.onRetry } : {}),
      },
    );

    const toolCallIds = reply.result.toolCalls?.map((call) => call.toolCallId) ?? [];
    if (toolCallIds.length > 0) memory.remember(toolCallIds, reply.thinkingBlocks);
    return {
      ...reply.result,
      providerMetadata: {
        ...reply.result.providerMetadata,
        ...(plan.thinkingBudgetTokens === undefined ? {} : { thinkingBudgetTokens: plan.thinkingBudgetTokens }),
      },
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  }

  return {
    specificationVersion: 'v1',
    provider: ANTHROPIC_PROVIDER,
    modelId,
    capabilities: ANTHROPIC_CAPABILITIES,
    ...(options.defaultConcurrency === undefined ? {} : { defaultConcurrency: options.defaultConcurrency }),
    generate,
  };
}
