/**
 * `@suaveplan/mcp/redis`: the shared stores on Redis, for several server processes. They take the
 * user's own client (node-redis or ioredis), so this package depends on neither. Node only.
 */
export { redisCommands, type IoRedisClient, type IoRedisSubscriber, type NodeRedisClient, type NodeRedisSubscriber, type RedisClient, type RedisCommands } from "./redis-commands.js";
export { RedisTaskStore, type RedisTaskStoreOptions } from "./redis-task-store.js";
export { RedisChangeFeed, type RedisChangeFeedOptions } from "./redis-change-feed.js";
export { RedisEventStore, type RedisEventStoreOptions } from "./redis-event-store.js";
