import { redactSecretText } from '@skillopt/contract';
import { Redis } from 'ioredis';

/** `url` with its credentials (if any) cut out: the only form of it a message may show. */
export function displayRedisUrl(url: string): string {
  return redactSecretText(url);
}

/**
 * A connection that waits out an outage instead of failing: BullMQ needs commands retried for as
 * long as it takes (`maxRetriesPerRequest: null`), and a trainer or worker should carry on once
 * Redis is back. `onUnreachable` and `onBack` are told once per outage.
 */
export function openRedisConnection(url: string, notices: { onUnreachable?: (message: string) => void; onBack?: () => void } = {}): Redis {
  const connection = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: (attempt) => Math.min(attempt * 100, 1000) });
  let unreachable = false;
  connection.on('error', (error: Error) => {
    if (unreachable) return;
    unreachable = true;
    notices.onUnreachable?.(`Redis at ${displayRedisUrl(url)} is unreachable (${redactSecretText(error.message)}); waiting for it to come back`);
  });
  connection.on('ready', () => {
    if (!unreachable) return;
    unreachable = false;
    notices.onBack?.();
  });
  return connection;
}
