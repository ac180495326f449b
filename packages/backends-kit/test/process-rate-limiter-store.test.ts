import { SkillOptError } from '@skillopt/contract';
import {
  createInMemoryRateLimiterStore,
  type ObtainRateLimiterOptions,
  processRateLimiters,
  type RateLimiterStore,
  type RateLimits,
  type RateLimitScope,
  useRateLimiterStore,
} from '../src/index';

const scope: RateLimitScope = { provider: 'openai', endpoint: 'http://127.0.0.1:8000/v1', credential: 'sk-test-0123456789abcdef', backendId: 'openai' };

interface RecordingStore extends RateLimiterStore {
  readonly obtained: Array<{ key: string; limits: RateLimits; options: ObtainRateLimiterOptions | undefined }>;
}

function recordingStore(): RecordingStore {
  const inner = createInMemoryRateLimiterStore();
  const obtained: RecordingStore['obtained'] = [];
  return {
    obtained,
    obtain(key, limits, options) {
      obtained.push({ key, limits, options });
      return inner.obtain(key, limits, options);
    },
    find: (key) => inner.find(key),
  };
}

describe('useRateLimiterStore', () => {
  it('makes processRateLimiters keep its limiters in the installed store until it is put back', async () => {
    const store = recordingStore();
    const restore = useRateLimiterStore(store);
    try {
      const limiter = processRateLimiters.limiterFor(scope, { maxConcurrency: 2 });
      await expect(limiter.run(async () => 'ran')).resolves.toBe('ran');
      expect(store.obtained.map(({ limits }) => limits)).toEqual([{ maxConcurrency: 2 }]);
    } finally {
      restore();
    }
    processRateLimiters.limiterFor({ ...scope, endpoint: 'http://127.0.0.1:9000/v1' }, { maxConcurrency: 3 });
    expect(store.obtained).toHaveLength(1);
  });

  it('is seen by every copy of backends-kit loaded in the process', () => {
    const store = recordingStore();
    let secondCopy: typeof import('../src/index') | undefined;
    jest.isolateModules(() => {
      secondCopy = require('../src/index');
    });
    expect(secondCopy?.processRateLimiters).not.toBe(processRateLimiters);
    const restore = useRateLimiterStore(store);
    try {
      secondCopy?.processRateLimiters.limiterFor(scope, { requestsPerMinute: 60 });
      expect(store.obtained.map(({ limits }) => limits)).toEqual([{ requestsPerMinute: 60 }]);
    } finally {
      restore();
    }
  });

  it('puts back the store that was installed before, and leaves a later one in place', () => {
    const first = recordingStore();
    const second = recordingStore();
    const restoreFirst = useRateLimiterStore(first);
    const restoreSecond = useRateLimiterStore(second);
    processRateLimiters.limiterFor(scope, { maxConcurrency: 1 });
    restoreSecond();
    processRateLimiters.limiterFor(scope, { maxConcurrency: 1 });
    const third = recordingStore();
    const restoreThird = useRateLimiterStore(third);
    restoreFirst();
    processRateLimiters.limiterFor(scope, { maxConcurrency: 1 });
    restoreThird();
    expect([first.obtained.length, second.obtained.length, third.obtained.length]).toEqual([1, 1, 1]);
  });

  it('hands the store the config error for limits another process set, the same one as in process', () => {
    const store = recordingStore();
    const restore = useRateLimiterStore(store);
    try {
      processRateLimiters.limiterFor(scope, { maxConcurrency: 8 });
    } finally {
      restore();
    }
    const conflictError = store.obtained[0]?.options?.conflictError;
    const failure = conflictError?.({ maxConcurrency: 2, requestsPerMinute: 60 });
    expect(SkillOptError.isInstance(failure) && failure.code).toBe('config-invalid');
    expect(failure?.message).toBe(
      'backends.openai: two models reach http://127.0.0.1:8000/v1 (openai) with the same credential, so they share one rate limit, but they were given different limits (max_concurrency 2, requests_per_minute 60; max_concurrency 8): set the limits once, at the top of the section',
    );
  });
});
