import { z } from 'zod';
import type { CallPurpose } from './call-purpose.js';
import { callWarningSchema, type CallWarning } from './call-warning.js';
import type { ModelCapabilities } from './capabilities.js';
import type { DispatchAnnouncement } from './dispatch-announcement.js';
import { messageSchema, type Message } from './messages.js';
import { isModelImplementation } from './implementation-shape.js';
import { readRequest, type RequestReading } from './request-reading.js';
import { toolCallSchema, toolDefinitionSchema, type ToolCall, type ToolDefinition } from './tools.js';
import { usageSchema, type Usage } from './usage.js';

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** Asks for a JSON reply; `schema` (JSON Schema) is passed on where the provider supports it. */
export const responseFormatSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text') }),
  z.strictObject({
    type: z.literal('json'),
    name: z.string().optional(),
    schema: z.record(z.string(), z.unknown()).optional(),
  }),
]);
export type ResponseFormat = z.infer<typeof responseFormatSchema>;

/** The data of a generate call; `signal` is checked separately since it is not data. */
export const generateRequestSchema = z.strictObject({
  messages: z.array(messageSchema).min(1),
  tools: z.array(toolDefinitionSchema).optional(),
  maxOutputTokens: z.int().positive().optional(),
  temperature: z.number().min(0).max(2).optional(),
  reasoningEffort: z.enum(REASONING_EFFORTS).optional(),
  responseFormat: responseFormatSchema.optional(),
  purpose: z.string().min(1),
  signal: z.custom<AbortSignal>((value) => value === undefined || value instanceof AbortSignal).optional(),
  onDispatch: z.custom<() => Promise<void>>((value) => value === undefined || typeof value === 'function').optional(),
  requestKey: z.string().min(1).optional(),
});

export interface GenerateRequest {
  messages: Message[];
  tools?: ToolDefinition[] | undefined;
  maxOutputTokens?: number | undefined;
  temperature?: number | undefined;
  reasoningEffort?: ReasoningEffort | undefined;
  responseFormat?: ResponseFormat | undefined;
  /** Why the call is made: `rollout`, `reflect`, `merge`, … (see KNOWN_CALL_PURPOSES). */
  purpose: CallPurpose;
  /** Aborting it cancels the call; the model then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** See {@link DispatchAnnouncement}: awaited before each request leaves the process, by a model that declares `capabilities.announcesDispatch`. */
  onDispatch?: DispatchAnnouncement | undefined;
  /**
   * A stable identity of the request within its run, set by core on a rollout's calls
   * (`rollout/<skill hash, or a candidate's place in the run>/<item>/<sample>/<call>`) for a model that declares
   * `capabilities.keyedRequests`: a backend that answers out of band (handoff) keys its answers by
   * it, so an answer survives a resume and a change of wording elsewhere in the prompt.
   */
  requestKey?: string | undefined;
}

export const FINISH_REASONS = ['stop', 'length', 'tool-calls', 'content-filter', 'other'] as const;
export type FinishReason = (typeof FINISH_REASONS)[number];

export const generateResultSchema = z.strictObject({
  text: z.string(),
  toolCalls: z.array(toolCallSchema).optional(),
  usage: usageSchema,
  finishReason: z.enum(FINISH_REASONS),
  /** Provider-specific facts worth keeping (response id, served model, cache hits); no secrets. */
  providerMetadata: z.record(z.string(), z.unknown()).optional(),
  /** What the model could not honour in the request it answered. */
  warnings: z.array(callWarningSchema).optional(),
});

export interface GenerateResult {
  text: string;
  toolCalls?: ToolCall[] | undefined;
  usage: Usage;
  finishReason: FinishReason;
  providerMetadata?: Record<string, unknown> | undefined;
  /** What the model could not honour in the request it answered; absent or empty when nothing. */
  warnings?: CallWarning[] | undefined;
}

/**
 * A text model behind one provider, version 1 of the interface. Implementations retry transient
 * failures themselves and throw a `SkillOptError` (usually a `ProviderError`) for what is left,
 * never return an error as text. What they cannot honour in a request (a field they do not know, a
 * setting the provider refuses) they answer anyway and report in the result's `warnings`.
 */
export interface ChatModelV1 {
  readonly specificationVersion: 'v1';
  /** The provider, e.g. `openai`, `anthropic`, `sim`. */
  readonly provider: string;
  /** The model as the provider names it, e.g. `gpt-5.5`. */
  readonly modelId: string;
  /** What it can honour; an env that needs a capability refuses a model that declares it missing. */
  readonly capabilities?: ModelCapabilities;
  /**
   * Calls in flight it handles well when the config sets no limit: its backend's own limiter uses
   * it, and core rolls out at most this many items at once unless the config says otherwise.
   * Absent: the caller's default.
   */
  readonly defaultConcurrency?: number;
  generate(request: GenerateRequest): Promise<GenerateResult>;
}

/** The chat model interface of this release (an alias of the newest version). */
export type ChatModel = ChatModelV1;

/** True when `value` has the shape of a ChatModel of a specification version this release defines. */
export function isChatModel(value: unknown): value is ChatModel {
  return isModelImplementation(value, 'chat-model');
}

/** A generate request as an implementation reads it: usable, with what it did not know as warnings. */
export type GenerateRequestReading = RequestReading<GenerateRequest>;

/**
 * Checks a request the way an implementation should: fields of the wrong type are problems (the
 * caller's bug, to be thrown as an error), while fields the contract does not know — sent by a
 * caller built against a newer contract — are left out of the request and become `unknown-field`
 * warnings, so the call is still answered and nothing is ignored silently.
 */
export function readGenerateRequest(input: unknown): GenerateRequestReading {
  return readRequest<GenerateRequest>(generateRequestSchema, input, 'model');
}
