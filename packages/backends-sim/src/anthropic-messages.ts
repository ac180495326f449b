import type { ImagePart, Message, TextPart, ToolCallPart, ToolDefinition, ToolResultPart } from '@skillopt/contract';
import { invalidRequest } from './anthropic-errors.js';

type Block = Record<string, unknown>;

function blocksOf(content: unknown, where: string): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalidRequest(`${where}: Input should be a valid string or a list of content blocks`);
  return content.map((block, index) => {
    if (typeof block !== 'object' || block === null || typeof (block as Block).type !== 'string')
      throw invalidRequest(`${where}.${index}: each content block needs a type`);
    return block as Block;
  });
}

function textOf(block: Block, where: string): string {
  if (typeof block.text !== 'string') throw invalidRequest(`${where}.text: Field required`);
  return block.text;
}

function imageOf(block: Block, where: string): ImagePart {
  const source = block.source as Block | undefined;
  if (source?.type === 'base64' && typeof source.data === 'string' && typeof source.media_type === 'string')
    return { type: 'image', image: `data:${source.media_type};base64,${source.data}`, mediaType: source.media_type };
  if (source?.type === 'url' && typeof source.url === 'string') return { type: 'image', image: source.url };
  throw invalidRequest(`${where}.source: an image needs a base64 source (media_type, data) or a url source`);
}

function toolResultText(content: unknown, where: string): string {
  if (content === undefined || content === null) return '';
  return blocksOf(content, where)
    .map((block, index) => (block.type === 'text' ? textOf(block, `${where}.${index}`) : '')) // images in a tool result are opaque
    .join('\n');
}

/** The system prompt of a Messages request (a string or text blocks) as one system message per block. */
function systemMessagesOf(system: unknown): Message[] {
  if (system === undefined || system === null) return [];
  return blocksOf(system, 'system').map((block, index) => {
    if (block.type !== 'text') throw invalidRequest(`system.${index}: only text blocks are allowed in the system prompt`);
    return { role: 'system', content: textOf(block, `system.${index}`) };
  });
}

/**
 * A Messages API request's `system` and `messages` as the contract's messages, which is what the
 * simulated model reads: text and images of user turns, text and tool_use of assistant turns
 * (thinking blocks are opaque to it and left out), tool_result blocks as tool messages.
 */
export function messagesFromAnthropic(system: unknown, raw: unknown): Message[] {
  if (!Array.isArray(raw) || raw.length === 0) throw invalidRequest('messages: at least one message is required');
  const messages: Message[] = systemMessagesOf(system);
  const toolNames = new Map<string, string>();
  raw.forEach((entry, index) => {
    const where = `messages.${index}`;
    const message = entry as Block | null;
    const role = message?.role;
    if (role === 'system') {
      messages.push(...systemMessagesOf(message?.content));
      return;
    }
    if (role !== 'user' && role !== 'assistant') throw invalidRequest(`${where}.role: Input should be 'user' or 'assistant'`);
    const blocks = blocksOf(message?.content, `${where}.content`);
    if (role === 'assistant') {
      const parts: Array<TextPart | ToolCallPart> = [];
      blocks.forEach((block, blockIndex) => {
        const at = `${where}.content.${blockIndex}`;
        if (block.type === 'text') parts.push({ type: 'text', text: textOf(block, at) });
        else if (block.type === 'tool_use') {
          if (typeof block.id !== 'string' || typeof block.name !== 'string') throw invalidRequest(`${at}: a tool_use block needs an id and a name`);
          toolNames.set(block.id, block.name);
          parts.push({ type: 'tool-call', toolCallId: block.id, toolName: block.name, input: block.input ?? {} });
        }
        // Thinking, server tool use and other blocks are opaque to the simulated model.
      });
      messages.push({ role: 'assistant', content: parts });
      return;
    }
    const results: ToolResultPart[] = [];
    const parts: Array<TextPart | ImagePart> = [];
    blocks.forEach((block, blockIndex) => {
      const at = `${where}.content.${blockIndex}`;
      if (block.type === 'text') parts.push({ type: 'text', text: textOf(block, at) });
      else if (block.type === 'image') parts.push(imageOf(block, at));
      else if (block.type === 'tool_result') {
        if (typeof block.tool_use_id !== 'string') throw invalidRequest(`${at}.tool_use_id: Field required`);
        results.push({
          type: 'tool-result',
          toolCallId: block.tool_use_id,
          toolName: toolNames.get(block.tool_use_id) ?? 'tool',
          output: toolResultText(block.content, `${at}.content`),
          ...(block.is_error === true ? { isError: true } : {}),
        });
      }
      // Documents, search results and block types newer than the simulator are opaque to it.
    });
    if (results.length > 0) messages.push({ role: 'tool', content: results });
    if (parts.length > 0) messages.push({ role: 'user', content: parts });
  });
  return messages;
}

/** A Messages request's client tools as the contract's tool definitions; server tools are left out. */
export function toolsFromAnthropic(raw: unknown): ToolDefinition[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw invalidRequest('tools: Input should be a valid list');
  const tools = raw.flatMap((entry, index) => {
    const tool = entry as Block | null;
    if (typeof tool?.name !== 'string') throw invalidRequest(`tools.${index}.name: Field required`);
    // A server tool (web search, code execution, …) runs at the provider, not in the client: there is nothing for the simulator to call.
    if (typeof tool.input_schema !== 'object' || tool.input_schema === null) return [];
    return [
      {
        name: tool.name,
        description: typeof tool.description === 'string' ? tool.description : '',
        inputSchema: tool.input_schema as Record<string, unknown>,
      },
    ];
  });
  return tools.length > 0 ? tools : undefined;
}
