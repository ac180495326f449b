import { z } from 'zod';

export const textPartSchema = z.strictObject({
  type: z.literal('text'),
  text: z.string(),
});
export type TextPart = z.infer<typeof textPartSchema>;

/**
 * An image given to the model. `image` is a URL (https: or data:) or base64 without a prefix,
 * in which case `mediaType` says what it is. Models that cannot see treat it as opaque.
 */
export const imagePartSchema = z.strictObject({
  type: z.literal('image'),
  image: z.string().min(1),
  mediaType: z.string().optional(),
  detail: z.enum(['auto', 'low', 'high']).optional(),
});
export type ImagePart = z.infer<typeof imagePartSchema>;

/** A tool invocation the assistant asked for. `input` is the parsed JSON arguments. */
export const toolCallPartSchema = z.strictObject({
  type: z.literal('tool-call'),
  toolCallId: z.string().min(1),
  toolName: z.string().min(1),
  input: z.unknown(),
});
export type ToolCallPart = z.infer<typeof toolCallPartSchema>;

/** What running a tool produced, sent back to the model under the call's id. */
export const toolResultPartSchema = z.strictObject({
  type: z.literal('tool-result'),
  toolCallId: z.string().min(1),
  toolName: z.string().min(1),
  output: z.string(),
  isError: z.boolean().optional(),
});
export type ToolResultPart = z.infer<typeof toolResultPartSchema>;

export const systemMessageSchema = z.strictObject({
  role: z.literal('system'),
  content: z.string(),
});
export type SystemMessage = z.infer<typeof systemMessageSchema>;

export const userMessageSchema = z.strictObject({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(z.discriminatedUnion('type', [textPartSchema, imagePartSchema]))]),
});
export type UserMessage = z.infer<typeof userMessageSchema>;

export const assistantMessageSchema = z.strictObject({
  role: z.literal('assistant'),
  content: z.union([z.string(), z.array(z.discriminatedUnion('type', [textPartSchema, toolCallPartSchema]))]),
});
export type AssistantMessage = z.infer<typeof assistantMessageSchema>;

export const toolMessageSchema = z.strictObject({
  role: z.literal('tool'),
  content: z.array(toolResultPartSchema).min(1),
});
export type ToolMessage = z.infer<typeof toolMessageSchema>;

export const messageSchema = z.discriminatedUnion('role', [systemMessageSchema, userMessageSchema, assistantMessageSchema, toolMessageSchema]);
export type Message = z.infer<typeof messageSchema>;

/** The plain text of a message: its text parts joined, other parts left out. */
export function messageText(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  const texts: string[] = [];
  for (const part of message.content) if (part.type === 'text') texts.push(part.text);
  return texts.join('\n');
}
