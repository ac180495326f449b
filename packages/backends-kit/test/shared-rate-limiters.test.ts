import { SkillOptError } from '@skillopt/contract';
import { createInMemoryRateLimiterStore, createRateLimiterRegistry, rateLimitScopeKey, type RateLimiter, type RateLimitScope } from '../src/index';

const scope: RateLimitScope = { provider: 'openai', endpoint: 'http://127.0.0.1:8000/v1', credential: 'sk-test-0123456789abcdef', backendId: 'openai' };

/** Runs `count` tasks at once, taking turns through `limiters`, and reports the most that ran together. */
async function peakConcurrency(limiters: readonly RateLimiter[], count: number): Promise<number> {
  let active = 0;
  let peak = 0;
  await Promise.all(
    Array.from({ length: count }, (_unused, index) =>
      (limiters[index % limiters.length] as RateLimiter).run(async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((resolve) => setTimeout(resolve, 10));
        active--;
      }),
    ),
  );
  return peak;
}

describe('the shared rate limiters', () => {
  it('give every model of one provider, endpoint and credential the same limiter', async () => {
    const registry = createRateLimiterRegistry();
    const target = registry.limiterFor(scope, { maxConcurrency: 2 });
    const optimizer = registry.limiterFor({ ...scope, endpoint: 'http://127.0.0.1:8000/v1/' }, { maxConcurrency: 2 });
    const peak = await peakConcurrency([target, optimizer], 8);
    expect(peak).toBe(2);
    expect(target).toBe(optimizer);
  });

  it('keep another credential or endpoint apart', () => {
    const registry = createRateLimiterRegistry();
    const first = registry.limiterFor(scope, { maxConcurrency: 2 });
    expect(registry.limiterFor({ ...scope, credential: 'sk-other-0123456789abcdef' }, { maxConcurrency: 2 })).not.toBe(first);
    expect(registry.limiterFor({ ...scope, endpoint: 'http://127.0.0.1:9000/v1' }, { maxConcurrency: 2 })).not.toBe(first);
  });

  it('let a model without limits of its own share the scope’s limiter, whichever was created first', async () => {
    const registry = createRateLimiterRegistry();
    const unconfigured = registry.limiterFor(scope);
    expect(await peakConcurrency([unconfigured], 3)).toBe(3);
    const configured = registry.limiterFor(scope, { maxConcurrency: 1 });
    const peak = await peakConcurrency([unconfigured, configured], 6);
    expect(peak).toBe(1);
    expect(unconfigured.state()).toEqual(configured.state());
  });

  it('hold a model without limits to the backend’s default until a configured limit exists, which then wins without a conflict', async () => {
    const registry = createRateLimiterRegistry();
    const defaults = { limits: { maxConcurrency: 2 } };
    const unconfigured = registry.limiterFor(scope, undefined, defaults);
    const alsoUnconfigured = registry.limiterFor(scope, undefined, defaults);
    expect(await peakConcurrency([unconfigured, alsoUnconfigured], 8)).toBe(2);
    const configured = registry.limiterFor(scope, { maxConcurrency: 5 });
    expect(await peakConcurrency([unconfigured, configured], 10)).toBe(5);
  });

  it('refuse two different limits for one scope with a config error that names no credential', () => {
    const registry = createRateLimiterRegistry();
    registry.limiterFor(scope, { maxConcurrency: 2, requestsPerMinute: 60 });
    let failure: unknown;
    try {
      registry.limiterFor(scope, { maxConcurrency: 8 });
    } catch (error) {
      failure = error;
    }
    expect(SkillOptError.isInstance(failure) && failure.code).toBe('config-invalid');
    expect((failure as Error).message).toBe(
      'backends.openai: two models reach http://127.0.0.1:8000/v1 (openai) with the same credential, so they share one rate limit, but they were given different limits (max_concurrency 2, requests_per_minute 60; max_concurrency 8): set the limits once, at the top of the section',
    );
    expect(JSON.stringify((failure as SkillOptError).toJSON())).not.toContain(scope.credential);
  });

  it('keep only a digest of the credential in the key', () => {
    expect(rateLimitScopeKey(scope)).not.toContain(scope.credential);
    expect(rateLimitScopeKey(scope)).toBe(rateLimitScopeKey({ ...scope }));
  });

  it('take a store of another kind, for limits shared beyond one process', () => {
    const store = createInMemoryRateLimiterStore();
    const obtained: string[] = [];
    const registry = createRateLimiterRegistry({
      obtain: (key, limits) => {
        obtained.push(key);
        return store.obtain(key, limits);
      },
      find: (key) => store.find(key),
    });
    registry.limiterFor(scope, { tokensPerMinute: 1000 });
    expect(obtained).toEqual([rateLimitScopeKey(scope)]);
    expect(store.find(rateLimitScopeKey(scope))?.limits).toEqual({ tokensPerMinute: 1000 });
  });
});
