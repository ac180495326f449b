import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages';

export interface SystemBlockOptions {
  /** Puts `cache_control: {type: 'ephemeral'}` on the last of the system messages' blocks. */
  promptCaching: boolean;
  /**
   * Text appended as a block of its own after the cache breakpoint (the JSON reply instruction),
   * so that asking for JSON on some calls does not change the cached prefix of the others.
   */
  trailingInstruction?: string | undefined;
}

/**
 * The contract's system messages as Anthropic's top-level `system` blocks, one block per message
 * in order (a system message in the middle of a conversation is lifted to the top: the Messages
 * API has no other place for it). Blank ones are left out, since the API rejects empty blocks.
 *
 * With prompt caching the last block that came from a system message is a cache breakpoint. The
 * system prompt is where an env puts the skill, and every rollout of a step sends the same skill,
 * so from the second rollout on the tools and the system prompt are read from Anthropic's cache.
 */
export function buildSystemBlocks(systemTexts: readonly string[], options: SystemBlockOptions): TextBlockParam[] | undefined {
  const blocks: TextBlockParam[] = systemTexts.filter((text) => text.trim() !== '').map((text) => ({ type: 'text', text }));
  const last = blocks[blocks.length - 1];
  if (options.promptCaching && last !== undefined) last.cache_control = { type: 'ephemeral' };
  if (options.trailingInstruction !== undefined && options.trailingInstruction.trim() !== '') blocks.push({ type: 'text', text: options.trailingInstruction });
  return blocks.length === 0 ? undefined : blocks;
}
