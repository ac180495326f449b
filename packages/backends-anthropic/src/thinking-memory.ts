import type { RedactedThinkingBlockParam, ThinkingBlockParam } from '@anthropic-ai/sdk/resources/messages';

export type ThinkingBlockToReplay = ThinkingBlockParam | RedactedThinkingBlockParam;

/**
 * Remembers the thinking blocks of replies that asked for tools, by tool call id.
 *
 * With extended thinking on, Anthropic requires the assistant turn that asked for a tool to come
 * back with its thinking blocks (signatures intact) when the tool results are sent. The contract's
 * assistant message carries text and tool calls only, so the model keeps them here and puts them
 * back in front of the tool calls of the same ids. A conversation whose thinking is not here any
 * more (a resumed run, more than `capacity` tool calls ago) is sent with thinking off instead.
 */
export interface ThinkingMemory {
  remember(toolCallIds: readonly string[], blocks: readonly ThinkingBlockToReplay[]): void;
  recall(toolCallId: string): readonly ThinkingBlockToReplay[] | undefined;
}

export function createThinkingMemory(capacity = 1_000): ThinkingMemory {
  const entries = new Map<string, readonly ThinkingBlockToReplay[]>();
  return {
    remember(toolCallIds, blocks) {
      if (blocks.length === 0) return;
      const kept = Object.freeze([...blocks]);
      for (const id of toolCallIds) {
        entries.delete(id);
        entries.set(id, kept);
      }
      // A Map iterates in insertion order: the first keys are the oldest.
      for (const oldest of entries.keys()) {
        if (entries.size <= capacity) break;
        entries.delete(oldest);
      }
    },
    recall(toolCallId) {
      return entries.get(toolCallId);
    },
  };
}
