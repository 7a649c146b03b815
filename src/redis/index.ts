/**
 * `@suaveplan/mcp/redis`: the shared stores on Redis, for several server processes. They take the
 * user's own client (node-redis or ioredis), so this package depends on neither. Node only.
 */
export {
  redisCommands,
  type RedisCommandsOptions,
  type IoRedisClient,
  type IoRedisSubscriber,
  type NodeRedisClient,
  type NodeRedisSubscriber,
  type RedisClient,
  type RedisCommands,
} from "./redis-commands.js";
export { RedisTaskStore, type RedisTaskStoreOptions } from "./redis-task-store.js";
export { RedisChangeFeed, type RedisChangeFeedOptions } from "./redis-change-feed.js";
export { RedisEventStore, type RedisEventStoreOptions } from "./redis-event-store.js";
export { RedisSessionDirectory, type RedisSessionDirectoryOptions } from "./redis-session-directory.js";
export { RedisInstanceBus, type RedisInstanceBusOptions } from "./redis-instance-bus.js";
export { RedisRequestStateKeys, type RedisRequestStateKeysOptions } from "./redis-request-state-keys.js";
