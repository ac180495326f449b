import { z } from 'zod';

/**
 * A tool the model may call. `inputSchema` is a JSON Schema object describing the arguments,
 * which is what every provider's wire format takes.
 */
export const toolDefinitionSchema = z.strictObject({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'tool names are 1-64 letters, digits, _ or -'),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
});
export type ToolDefinition = z.infer<typeof toolDefinitionSchema>;

/** A tool call as returned by a model: the same shape as the assistant message's tool-call part. */
export const toolCallSchema = z.strictObject({
  toolCallId: z.string().min(1),
  toolName: z.string().min(1),
  input: z.unknown(),
});
export type ToolCall = z.infer<typeof toolCallSchema>;
