import { estimateTokens } from '@skillopt/backends-kit';
import { invalidRequest } from './anthropic-errors.js';
import { hashHex } from './hashing.js';

/** Anthropic's limit on cache breakpoints in one request. */
const MAX_CACHE_BREAKPOINTS = 4;
/** How long an unused cache entry lives, as Anthropic's default (`ephemeral`, 5 minutes) cache. */
const CACHE_TTL_MS = 5 * 60_000;

/** The token accounting of one request, in the Messages API's terms. */
export interface SimulatedPromptUsage {
  /** Input after the last cache breakpoint, plus all input when nothing was cached or written. */
  inputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
}

export interface SimulatedPromptCache {
  /** Counts a request's prompt tokens against the cache, and caches its prefixes for the next one. */
  account(model: string, request: { tools?: unknown; system?: unknown; messages?: unknown }): SimulatedPromptUsage;
}

interface Unit {
  /** What identifies the unit in a cache key: the block as sent, cache_control left out. */
  key: string;
  /** What its tokens are counted from. */
  text: string;
  breakpoint: boolean;
}

function unitOf(value: unknown): Unit {
  const block =
    typeof value === 'object' && value !== null
      ? ({ ...(value as Record<string, unknown>) } as Record<string, unknown>)
      : { type: 'text', text: String(value) };
  const breakpoint = typeof block.cache_control === 'object' && block.cache_control !== null;
  delete block.cache_control;
  let text: string;
  if (typeof block.text === 'string') text = block.text;
  else if (typeof block.thinking === 'string') text = block.thinking;
  else if (block.type === 'image')
    text = ''; // opaque to the simulated model
  else if (block.type === 'tool_result') text = typeof block.content === 'string' ? block.content : JSON.stringify(block.content ?? '');
  else if (block.type === 'tool_use') text = `${String(block.name)}(${JSON.stringify(block.input ?? {})})`;
  else text = JSON.stringify(block);
  return { key: JSON.stringify(block), text, breakpoint };
}

/** The prompt in the order Anthropic caches it: tools, then system, then messages, block by block. */
function unitsOf(request: { tools?: unknown; system?: unknown; messages?: unknown }): Unit[] {
  const units: Unit[] = [];
  if (Array.isArray(request.tools)) for (const tool of request.tools) units.push({ ...unitOf(tool), text: JSON.stringify(tool) });
  if (typeof request.system === 'string') units.push(unitOf({ type: 'text', text: request.system }));
  else if (Array.isArray(request.system)) for (const block of request.system) units.push(unitOf(block));
  if (Array.isArray(request.messages))
    for (const message of request.messages as Array<{ role?: unknown; content?: unknown }>) {
      units.push({ key: `role:${String(message?.role)}`, text: '', breakpoint: false });
      if (typeof message?.content === 'string') units.push(unitOf({ type: 'text', text: message.content }));
      else if (Array.isArray(message?.content)) for (const block of message.content) units.push(unitOf(block));
    }
  return units;
}

/** All the input tokens of a Messages request (tools, system, messages), cached or not: what count_tokens answers. */
export function promptTokensOf(request: Record<string, unknown>): number {
  return estimateTokens(
    unitsOf(request)
      .map((unit) => unit.text)
      .join('\n'),
  );
}

/**
 * A SIMULATED prompt cache with the Messages API's accounting. A block carrying `cache_control`
 * is a breakpoint: the prompt up to and including it (tools, system, messages, in that order) is a
 * prefix the cache keys on, per model. A request whose longest cached prefix matches reads those
 * tokens from the cache (`cache_read_input_tokens`); the part up to its last breakpoint beyond that
 * is written (`cache_creation_input_tokens`); the rest is plain `input_tokens`. Entries live five
 * minutes from their last use. Unlike Anthropic, any length is cached (no 1024-token minimum), so
 * short test prompts show the effect too. Tokens are estimated from text length.
 */
export function createSimulatedPromptCache(now: () => number = Date.now): SimulatedPromptCache {
  const entries = new Map<string, number>();
  return {
    account(model, request) {
      const units = unitsOf(request);
      const breakpoints = units.flatMap((unit, index) => (unit.breakpoint ? [index] : []));
      if (breakpoints.length > MAX_CACHE_BREAKPOINTS)
        throw invalidRequest(`A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints.length}.`);
      const tokensUpTo = (index: number): number =>
        estimateTokens(
          units
            .slice(0, index + 1)
            .map((unit) => unit.text)
            .join('\n'),
        );
      const total = estimateTokens(units.map((unit) => unit.text).join('\n'));
      if (breakpoints.length === 0) return { inputTokens: total, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };

      const time = now();
      for (const [key, expiresAt] of entries) if (expiresAt <= time) entries.delete(key);
      const keys = breakpoints.map((index) => hashHex(model, ...units.slice(0, index + 1).map((unit) => unit.key)));
      let hit = -1;
      keys.forEach((key, position) => {
        if (entries.has(key)) hit = position;
      });
      const read = hit < 0 ? 0 : tokensUpTo(breakpoints[hit] as number);
      const lastBreakpoint = breakpoints[breakpoints.length - 1] as number;
      const written = hit === breakpoints.length - 1 ? 0 : tokensUpTo(lastBreakpoint) - read;
      for (const key of keys) entries.set(key, time + CACHE_TTL_MS);
      return { inputTokens: Math.max(0, total - read - written), cacheReadInputTokens: read, cacheCreationInputTokens: written };
    },
  };
}
