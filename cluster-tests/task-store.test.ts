// The TaskStore contract (the suite the in-memory store passes) on a real redis-server, through
// either client library.
import { RedisTaskStore } from "../src/redis/index.js";
import { describeTaskStore } from "../src/stores/task-store.test-helpers.js";
import { uniquePrefix, useRedisServer } from "./support/redis-server.js";

const MODEL_RUNS = Number(process.env["FUZZ_RUNS"]) || 60;
const redis = useRedisServer();

describeTaskStore(
  "RedisTaskStore on node-redis",
  async (options) => new RedisTaskStore({ ...options, client: await redis.nodeRedis(), prefix: uniquePrefix("tasks-node") }),
  MODEL_RUNS,
);
describeTaskStore(
  "RedisTaskStore on ioredis",
  async (options) => new RedisTaskStore({ ...options, client: await redis.ioRedis(), prefix: uniquePrefix("tasks-io") }),
  MODEL_RUNS,
);
