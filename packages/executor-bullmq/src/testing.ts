export { type StartRedisServerOptions, startRedisServer, type TestRedisServer } from './testing/redis-server.js';
