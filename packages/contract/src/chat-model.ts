import { z } from 'zod';
import type { CallPurpose } from './call-purpose.js';
import { messageSchema, type Message } from './messages.js';
import { isModelImplementation } from './implementation-shape.js';
import type { SpecificationVersion } from './specification-version.js';
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
});

export interface GenerateRequest {
  messages: Message[];
  tools?: ToolDefinition[];
  maxOutputTokens?: number;
  temperature?: number;
  reasoningEffort?: ReasoningEffort;
  responseFormat?: ResponseFormat;
  /** Why the call is made: `rollout`, `reflect`, `merge`, … (see KNOWN_CALL_PURPOSES). */
  purpose: CallPurpose;
  /** Aborting it cancels the call; the model then rejects with the signal's reason. */
  signal?: AbortSignal;
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
});

export interface GenerateResult {
  text: string;
  toolCalls?: ToolCall[];
  usage: Usage;
  finishReason: FinishReason;
  providerMetadata?: Record<string, unknown>;
}

/**
 * A text model behind one provider. Implementations retry transient failures themselves and throw
 * a `SkillOptError` (usually a `ProviderError`) for what is left, never return an error as text.
 */
export interface ChatModel {
  readonly specificationVersion: SpecificationVersion;
  /** The provider, e.g. `openai`, `anthropic`, `sim`. */
  readonly provider: string;
  /** The model as the provider names it, e.g. `gpt-5.5`. */
  readonly modelId: string;
  generate(request: GenerateRequest): Promise<GenerateResult>;
}

/** True when `value` has the shape of a ChatModel of a supported specification version. */
export function isChatModel(value: unknown): value is ChatModel {
  return isModelImplementation(value, 'generate');
}
