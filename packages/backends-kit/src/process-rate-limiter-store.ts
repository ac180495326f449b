import { createInMemoryRateLimiterStore, type RateLimiterStore } from './rate-limiter-store.js';

// A symbol from the global registry, so every copy of backends-kit loaded in one process (a CLI
// and a plugin may each bring their own) finds the store one of them installed.
const INSTALLED_STORE = Symbol.for('@skillopt/backends-kit.rate-limiter-store');

type GlobalWithStore = typeof globalThis & { [INSTALLED_STORE]?: RateLimiterStore };

// Without an installed store each copy keeps its own limiters in memory, as before stores could
// be installed: nothing changes for a process that never calls useRateLimiterStore.
const inMemoryStore = createInMemoryRateLimiterStore();

function currentStore(): RateLimiterStore {
  return (globalThis as GlobalWithStore)[INSTALLED_STORE] ?? inMemoryStore;
}

/**
 * Makes `processRateLimiters`, the registry every backend uses unless it is handed another one,
 * keep its limiters in `store` (a store counting in Redis, say, so that every worker of a
 * distributed run shares one provider's limits). Call it before the backends are created: a
 * backend with configured limits keeps the limiter it was given when it was created. Returns a
 * function that puts the previous store back (while `store` is still the installed one).
 */
export function useRateLimiterStore(store: RateLimiterStore): () => void {
  const slot = globalThis as GlobalWithStore;
  const previous = slot[INSTALLED_STORE];
  slot[INSTALLED_STORE] = store;
  return () => {
    if (slot[INSTALLED_STORE] !== store) return;
    if (previous === undefined) delete slot[INSTALLED_STORE];
    else slot[INSTALLED_STORE] = previous;
  };
}

/** Defers every call to the installed store, so a store installed later still takes effect. */
export const processRateLimiterStore: RateLimiterStore = {
  obtain: (key, limits, options) => currentStore().obtain(key, limits, options),
  find: (key) => currentStore().find(key),
};
