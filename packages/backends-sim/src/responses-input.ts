import type { ImagePart, Message, ResponseFormat, TextPart, ToolCallPart, ToolDefinition } from '@skillopt/contract';
import { badRequest } from './openai-http.js';

type Item = Record<string, unknown>;

/**
 * A Responses API request's conversation as the contract's messages: `instructions` and
 * `system`/`developer` items as system messages, `user` and `assistant` messages, `function_call`
 * items as the assistant's tool calls and `function_call_output` items as tool results. Items and
 * content parts the simulator has no use for (reasoning, web search calls, files, other tool kinds)
 * are left out rather than refused: a client's newer fields are not an error.
 */
export function messagesFromResponsesInput(instructions: unknown, input: unknown): Message[] {
  const messages: Message[] = [];
  if (typeof instructions === 'string' && instructions !== '') messages.push({ role: 'system', content: instructions });
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
    return messages;
  }
  if (!Array.isArray(input)) throw badRequest('input must be a string or an array of input items', 'input');
  const toolNames = new Map<string, string>();
  input.forEach((entry, index) => {
    const item = entry as Item | null;
    if (typeof item !== 'object' || item === null) throw badRequest(`input[${index}] must be an object`, `input[${index}]`);
    const type = item.type ?? 'message';
    if (type === 'message') {
      const message = messageOf(item, index);
      if (message !== undefined) messages.push(message);
    } else if (type === 'function_call') {
      if (typeof item.call_id !== 'string' || typeof item.name !== 'string')
        throw badRequest(`input[${index}]: a function_call item needs call_id and name`, `input[${index}]`);
      toolNames.set(item.call_id, item.name);
      appendToolCall(messages, { type: 'tool-call', toolCallId: item.call_id, toolName: item.name, input: argumentsOf(item.arguments, index) });
    } else if (type === 'function_call_output') {
      if (typeof item.call_id !== 'string') throw badRequest(`input[${index}]: a function_call_output item needs call_id`, `input[${index}]`);
      messages.push({
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: item.call_id, toolName: toolNames.get(item.call_id) ?? 'tool', output: outputText(item.output) }],
      });
    }
  });
  if (!messages.some((message) => message.role === 'user' || message.role === 'tool'))
    throw badRequest('input must hold at least one user message or function_call_output item', 'input');
  return messages;
}

function messageOf(item: Item, index: number): Message | undefined {
  const parts = partsOf(item.content, index);
  const text = parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  switch (item.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: text };
    case 'user':
      return { role: 'user', content: parts.some((part) => part.type === 'image') ? parts : text };
    case 'assistant':
      return text === '' ? undefined : { role: 'assistant', content: text };
    default:
      throw badRequest(`input[${index}].role must be user, assistant, system or developer`, `input[${index}].role`);
  }
}

function partsOf(content: unknown, index: number): Array<TextPart | ImagePart> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw badRequest(`input[${index}].content must be a string or an array of content parts`, `input[${index}].content`);
  const parts: Array<TextPart | ImagePart> = [];
  for (const part of content as Array<Item | null>) {
    if ((part?.type === 'input_text' || part?.type === 'output_text' || part?.type === 'text') && typeof part.text === 'string')
      parts.push({ type: 'text', text: part.text });
    else if (part?.type === 'refusal' && typeof part.refusal === 'string') parts.push({ type: 'text', text: part.refusal });
    else if (part?.type === 'input_image' && typeof part.image_url === 'string' && part.image_url !== '') parts.push({ type: 'image', image: part.image_url });
  }
  return parts;
}

/** Consecutive function calls are one assistant turn, as a model that calls several tools at once sends them. */
function appendToolCall(messages: Message[], call: ToolCallPart): void {
  const last = messages[messages.length - 1];
  if (last?.role === 'assistant' && Array.isArray(last.content) && last.content.every((part) => part.type === 'tool-call')) {
    last.content.push(call);
    return;
  }
  if (last?.role === 'assistant' && typeof last.content === 'string') {
    messages[messages.length - 1] = { role: 'assistant', content: [{ type: 'text', text: last.content }, call] };
    return;
  }
  messages.push({ role: 'assistant', content: [call] });
}

function argumentsOf(raw: unknown, index: number): unknown {
  if (typeof raw !== 'string' || raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest(`input[${index}].arguments is not valid JSON`, `input[${index}].arguments`);
  }
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (!Array.isArray(output)) return '';
  return (output as Array<Item | null>)
    .map((part) => (typeof part?.text === 'string' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** The request's function tools; built-in tool kinds (web search, custom grammars, …) are not the simulator's to call. */
export function toolsFromResponses(raw: unknown): ToolDefinition[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const tools = (raw as Array<Item | null>)
    .filter((tool): tool is Item => tool?.type === 'function' && typeof tool.name === 'string')
    .map((tool) => ({
      name: tool.name as string,
      description: typeof tool.description === 'string' ? tool.description : '',
      inputSchema:
        typeof tool.parameters === 'object' && tool.parameters !== null ? (tool.parameters as Record<string, unknown>) : { type: 'object', properties: {} },
    }));
  return tools.length > 0 ? tools : undefined;
}

/** `text.format` of type `json_schema` as the contract's JSON response format. */
export function responseFormatFromResponses(text: unknown): ResponseFormat | undefined {
  const format = (text as { format?: Item } | null | undefined)?.format;
  if (format?.type !== 'json_schema' || typeof format.schema !== 'object' || format.schema === null) return undefined;
  return { type: 'json', schema: format.schema as Record<string, unknown>, ...(typeof format.name === 'string' ? { name: format.name } : {}) };
}
