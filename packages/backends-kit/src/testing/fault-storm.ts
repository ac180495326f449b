import { createHash } from 'node:crypto';
import type { RecordedRequest, ScriptedReply } from './fault-injecting-server.js';
import { hangingReply, malformedBodyReply, rateLimitedReply, resetReply, serverErrorReply } from './scripted-faults.js';

/** The share of requests (0 to 1) that get each fault; together at most 1. */
export interface FaultStormRates {
  /** A 429 with `retry-after-ms`. */
  rateLimited?: number;
  /** A 500. */
  serverError?: number;
  /** The connection destroyed without an answer. */
  reset?: number;
  /** No answer at all, until the client's timeout. */
  hang?: number;
  /** A 200 whose body is cut-off JSON. */
  malformedBody?: number;
}

type StormFault = keyof FaultStormRates;

export interface FaultStormOptions {
  /** Another seed, another schedule; the same seed, the same faults on the same requests. */
  seed: number;
  rates: FaultStormRates;
  /** The `retry-after-ms` of the 429s. Default 10. */
  retryAfterMs?: number;
}

export interface FaultStorm {
  /** The fault-injecting server's `choose`: a fault, or undefined to let the fallback answer. */
  choose(request: Omit<RecordedRequest, 'reply'>): ScriptedReply | undefined;
}

const FAULT_ORDER: readonly StormFault[] = ['rateLimited', 'serverError', 'reset', 'hang', 'malformedBody'];

/**
 * A seeded storm of provider faults for the fault-injecting server. Which request gets which fault
 * depends on the seed and on the request alone (method, path, body, and how many times that same
 * request came before), never on arrival order: concurrent clients racing each other see the same
 * faults on every run, so a test under the storm is deterministic. A retried request is a new draw,
 * as it is at a real provider.
 */
export function seededFaultStorm(options: FaultStormOptions): FaultStorm {
  const total = FAULT_ORDER.reduce((sum, fault) => sum + (options.rates[fault] ?? 0), 0);
  if (FAULT_ORDER.some((fault) => (options.rates[fault] ?? 0) < 0) || total > 1)
    throw new RangeError(`seededFaultStorm: each rate must be at least 0 and together at most 1, got ${JSON.stringify(options.rates)}`);
  const seen = new Map<string, number>();
  const retryAfterMs = options.retryAfterMs ?? 10;
  const replies: Readonly<Record<StormFault, () => ScriptedReply>> = {
    rateLimited: () => rateLimitedReply({ retryAfterMs }),
    serverError: () => serverErrorReply(500),
    reset: resetReply,
    hang: hangingReply,
    malformedBody: () => malformedBodyReply(),
  };
  return {
    choose(request) {
      const identity = `${request.method} ${request.path}\n${request.text}`;
      const occurrence = seen.get(identity) ?? 0;
      seen.set(identity, occurrence + 1);
      const draw = uniformDraw(`${options.seed}\n${occurrence}\n${identity}`);
      let threshold = 0;
      for (const fault of FAULT_ORDER) {
        threshold += options.rates[fault] ?? 0;
        if (draw < threshold) return replies[fault]();
      }
      return undefined;
    },
  };
}

/** A number in [0, 1) fixed by `text`. */
function uniformDraw(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}
