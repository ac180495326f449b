import { ERROR_CODES, SkillOptError, type ImagePart, type Message, type ToolDefinition } from '@skillopt/contract';
import type {
  ChatCompletionContentPart,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';

/**
 * The contract's messages in Chat Completions form: text and image parts, assistant tool calls
 * (arguments as a JSON string) and tool results (one `tool` message per result, as the API wants).
 */
export function toChatCompletionMessages(messages: readonly Message[]): ChatCompletionMessageParam[] {
  const converted: ChatCompletionMessageParam[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        converted.push({ role: 'system', content: message.content });
        break;
      case 'user':
        converted.push({
          role: 'user',
          content:
            typeof message.content === 'string'
              ? message.content
              : message.content.map(
                  (part): ChatCompletionContentPart =>
                    part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: imageUrlOf(part) },
                ),
        });
        break;
      case 'assistant': {
        if (typeof message.content === 'string') {
          converted.push({ role: 'assistant', content: message.content });
          break;
        }
        const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
        const toolCalls = message.content.flatMap((part): ChatCompletionMessageFunctionToolCall[] =>
          part.type === 'tool-call'
            ? [{ id: part.toolCallId, type: 'function', function: { name: part.toolName, arguments: JSON.stringify(part.input ?? {}) } }]
            : [],
        );
        converted.push({
          role: 'assistant',
          // The API wants null rather than '' beside tool calls.
          content: text === '' && toolCalls.length > 0 ? null : text,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        });
        break;
      }
      case 'tool':
        for (const result of message.content)
          converted.push({
            role: 'tool',
            tool_call_id: result.toolCallId,
            // Chat Completions has no error flag on a tool result; the text says it instead.
            content: result.isError ? `Error: ${result.output}` : result.output,
          });
        break;
    }
  }
  return converted;
}

/** The contract's tools as function tools. */
export function toChatCompletionTools(tools: readonly ToolDefinition[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

// The first bytes of common image formats, in base64, for bare base64 without a media type.
const BASE64_SIGNATURES: ReadonlyArray<[string, string]> = [
  ['iVBORw0KGgo', 'image/png'],
  ['/9j/', 'image/jpeg'],
  ['R0lGOD', 'image/gif'],
  ['UklGR', 'image/webp'],
];

/**
 * An image part as `image_url`: an https:, http: or data: URL passes as is; bare base64 becomes a
 * data URL with its `mediaType` (or the type its first bytes show: PNG, JPEG, GIF, WebP).
 */
function imageUrlOf(part: ImagePart): { url: string; detail?: 'auto' | 'low' | 'high' } {
  const detail = part.detail ? { detail: part.detail } : {};
  const image = part.image.trim();
  if (/^(https?|data):/i.test(image)) return { url: image, ...detail };
  const mediaType = part.mediaType ?? BASE64_SIGNATURES.find(([signature]) => image.startsWith(signature))?.[1];
  if (mediaType === undefined)
    throw new SkillOptError({
      code: ERROR_CODES.dataInvalid,
      category: 'user',
      message: 'an image part holds neither a URL nor base64 of a PNG, JPEG, GIF or WebP image, and names no mediaType',
    });
  return { url: `data:${mediaType};base64,${image}`, ...detail };
}
