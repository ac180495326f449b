import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ToolDefinition } from '@skillopt/contract';

/** The contract's tools as Anthropic client tools (`input_schema` is the same JSON Schema). */
export function toAnthropicTools(tools: readonly ToolDefinition[] | undefined): Tool[] | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    name: tool.name,
    ...(tool.description === '' ? {} : { description: tool.description }),
    // Anthropic requires an object schema; a contract tool's inputSchema is one by definition.
    input_schema: { type: 'object', ...tool.inputSchema } as Tool.InputSchema,
  }));
}
