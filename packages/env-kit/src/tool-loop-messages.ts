import type { Message, ToolCall, ToolResultPart } from '@skillopt/contract';

/** A tool call as one line of text for a trajectory: `grep({"pattern":"receipts"})`. */
export function describeToolCall(call: ToolCall): string {
  let input: string;
  try {
    input = JSON.stringify(call.input ?? null);
  } catch {
    input = String(call.input);
  }
  return `${call.toolName}(${input})`;
}

/** The assistant message a tool loop appends for a reply that called tools: its text (if any), then one tool-call part per call. */
export function assistantToolCallMessage(text: string, calls: readonly ToolCall[]): Message {
  return {
    role: 'assistant',
    content: [
      ...(text.trim() === '' ? [] : [{ type: 'text' as const, text }]),
      ...calls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.toolCallId, toolName: call.toolName, input: call.input })),
    ],
  };
}

/** The result part answering one tool call, under its id. */
export function toolResultPart(call: ToolCall, outcome: { output: string; isError: boolean }): ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output: outcome.output,
    ...(outcome.isError ? { isError: true } : {}),
  };
}
