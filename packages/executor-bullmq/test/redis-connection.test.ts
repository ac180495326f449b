import { displayRedisUrl } from '../src/index';
import { openRedisConnection } from '../src/redis-connection';
import { startRedisServer } from '../src/testing';

describe('a Redis URL in messages', () => {
  it('never shows its credentials', () => {
    expect(displayRedisUrl('redis://user:secret-pass@redis.internal:6379/0')).toBe('redis://[redacted]@redis.internal:6379/0');
    expect(displayRedisUrl('rediss://:secret-pass@redis.internal:6380')).toBe('rediss://[redacted]@redis.internal:6380');
    expect(displayRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });

  it('is told once when Redis goes away and once when it is back', async () => {
    const redis = await startRedisServer();
    const notices: string[] = [];
    const connection = openRedisConnection(redis.url, { onUnreachable: (message) => notices.push(message), onBack: () => notices.push('back') });
    try {
      await connection.ping();
      await redis.kill();
      while (notices.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await redis.start();
      await connection.ping();
      while (notices.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(notices).toHaveLength(2);
      expect(notices[0]).toMatch(/^Redis at redis:\/\/127\.0\.0\.1:\d+ is unreachable \(.*\); waiting for it to come back$/);
      expect(notices[1]).toBe('back');
    } finally {
      connection.disconnect();
      await redis.stop();
    }
  });
});
