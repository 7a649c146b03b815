// A bounded soak of tasks (issue 21): `SOAK_TASKS` (default 1 000) tool calls become tasks through
// the 2026-07-28 request path; half are cancelled while they run, the rest complete. Every task ends
// in exactly one final state, counted from the store and from every change the feed carried; once
// the tasks' time to live has passed the store is empty, no run, timer or listener is left, and the
// heap is back where a warm-up round left it.
import { queryObjects } from "node:v8";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { StatelessHandlerContext } from "../src/server/stateless/stateless-context.js";
import { TaskHandlerContext } from "../src/server/tasks/task-context.js";
import { Run } from "../src/server/tasks/task-run.js";
import {
  EXTENSIONS,
  InMemoryChangeFeed,
  InMemoryTaskStore,
  MCPServer,
  META_KEYS,
  serverTasks,
  type JsonObject,
  type RequestChannel,
} from "../src/index.js";
import { heapAfterGc, liveTimers, until } from "./support/soak.js";

const TASKS = Number(process.env["SOAK_TASKS"]) || 1_000;
/** How long a task is kept: long enough for the round, short enough for the test to wait it out. */
const TTL_MS = 1_500;
const WARM_UP = 100;
const HEAP_SLACK_BYTES = 2 * 1024 * 1024;
const FINAL = new Set(["completed", "failed", "cancelled"]);

interface Soak {
  readonly server: MCPServer;
  readonly store: InMemoryTaskStore;
  readonly feed: InMemoryChangeFeed;
  /** Every status the feed's changes showed, per task, in order (repeats removed). */
  readonly seen: Map<string, string[]>;
}

function soakServer(): Soak {
  const store = new InMemoryTaskStore({ maxTasksPerOwner: 2 * TASKS + WARM_UP });
  const feed = new InMemoryChangeFeed();
  const server = new MCPServer(
    { name: "soak", version: "1.0.0" },
    { changeFeed: feed, tasks: serverTasks({ store, defaultTtlMs: TTL_MS, maxTtlMs: TTL_MS, pollIntervalMs: 50 }) },
  );
  server.tool(
    "work",
    { execution: { taskSupport: "optional" }, inputSchema: z.object({ hold: z.boolean() }) },
    async ({ hold }, context) => {
      // A held task runs until it is cancelled; the others finish after a few turns.
      await new Promise<void>((resolve) => {
        if (hold) context.signal.addEventListener("abort", () => resolve(), { once: true });
        else setTimeout(resolve, 1);
      });
      return { content: [{ type: "text", text: hold ? "held" : "done" }] };
    },
  );
  const seen = new Map<string, string[]>();
  feed.subscribe((change) => {
    if (change.kind !== "task") return;
    // The anonymous owner is the one every stateless request without a principal shares.
    void store.get("anon", change.taskId).then((task) => {
      if (!task) return;
      const statuses = seen.get(task.taskId) ?? [];
      if (statuses.at(-1) !== task.status) statuses.push(task.status);
      seen.set(task.taskId, statuses);
    });
  });
  return { server, store, feed, seen };
}

/** Each request its own channel, as each HTTP request has. */
const channel = (): RequestChannel => ({ signal: new AbortController().signal, inbound: undefined, notify: () => Promise.resolve() });
const declared = { [META_KEYS.protocolVersion]: "2026-07-28", [META_KEYS.clientCapabilities]: { extensions: { [EXTENSIONS.tasks]: {} } } };

async function request(server: MCPServer, id: number, method: string, params: JsonObject): Promise<JsonObject> {
  const answer = await server.serveStateless(id, method, { ...params, _meta: declared }, channel());
  if (!("result" in answer)) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

/** Starts `count` tasks, half held then cancelled at scattered moments; resolves with their ids once every one is final. */
async function round({ server }: Soak, count: number, firstId: number): Promise<{ held: string[]; free: string[] }> {
  const held: string[] = [];
  const free: string[] = [];
  let id = firstId;
  await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const hold = index % 2 === 0;
      const created = await request(server, id++, "tools/call", { name: "work", arguments: { hold } });
      if (created["resultType"] !== "task") throw new Error(`tools/call answered ${String(created["resultType"])}, not a task`);
      const taskId = created["taskId"] as string;
      (hold ? held : free).push(taskId);
      if (!hold) return;
      // Cancelled at a scattered moment: at once, or a few turns into its run.
      await new Promise((resolve) => setTimeout(resolve, index % 7));
      const acknowledged = await request(server, id++, "tasks/cancel", { taskId });
      if (acknowledged["resultType"] !== "complete") throw new Error("tasks/cancel was not acknowledged");
    }),
  );
  await until(async () => {
    const states = await Promise.all(
      [...held, ...free].map(async (taskId) => (await request(server, id++, "tasks/get", { taskId }))["status"] as string),
    );
    return states.every((status) => FINAL.has(status));
  }, 30_000);
  return { held, free };
}

/** A round of `count` tasks, checked from the store and from what the feed carried. */
async function checkedRound(soak: Soak, count: number, firstId: number): Promise<void> {
  const { store, seen } = soak;
  const { held, free } = await round(soak, count, firstId);
  expect([held.length, free.length]).toEqual([count / 2, count / 2]);
  // From the store: the held ones cancelled, the others completed, each exactly once and for good.
  const finals = await Promise.all([...held, ...free].map(async (taskId) => (await store.get("anon", taskId))?.status));
  expect(finals.slice(0, held.length).every((status) => status === "cancelled")).toBe(true);
  expect(finals.slice(held.length).every((status) => status === "completed")).toBe(true);
  // From the feed: no task showed a second final state, or anything after its first.
  await until(() => [...held, ...free].every((taskId) => FINAL.has(seen.get(taskId)?.at(-1) ?? "")), 30_000);
  const notOnce = [...held, ...free].filter((taskId) => {
    const statuses = seen.get(taskId) as string[];
    return statuses.filter((status) => FINAL.has(status)).length !== 1 || !FINAL.has(statuses.at(-1) as string);
  });
  expect(notOnce).toEqual([]);
}

describe("tasks soak", () => {
  it(`${TASKS} tasks, half cancelled: one final state each, the store empty after expiry, nothing left, no heap growth`, async () => {
    const soak = soakServer();
    const { server, store, feed, seen } = soak;
    const timersBefore = liveTimers();
    const listenersBefore = feed.listenerCount;
    await checkedRound(soak, WARM_UP, 1);
    await until(() => store.size === 0, TTL_MS * 4);
    seen.clear();
    const heapWarm = await heapAfterGc();

    // The round's own ids are dropped before the heap is measured again: only the library's memory counts.
    await checkedRound(soak, TASKS, 10_000);
    // Past their time to live, the engine's own timer empties the store.
    await until(() => store.size === 0 && store.ownerCount === 0, TTL_MS * 4);
    expect([store.size, store.ownerCount]).toEqual([0, 0]);
    seen.clear();
    const grownBytes = (await heapAfterGc()) - heapWarm;
    console.info(`soak (tasks): heap after GC grew ${(grownBytes / 1024).toFixed(0)} KiB over ${TASKS} tasks after the warm-up round`);
    // Not one run, task context or creating request's context outlives its task.
    expect(liveInstances()).toEqual({ Run: 0, TaskHandlerContext: 0, StatelessHandlerContext: 0 });
    expect(grownBytes).toBeLessThan(HEAP_SLACK_BYTES);
    await until(() => liveTimers() <= timersBefore);
    expect(liveTimers()).toBeLessThanOrEqual(timersBefore);
    await server.close();
    expect(feed.listenerCount).toBeLessThanOrEqual(listenersBefore);
  }, 120_000);
});

/** Live instances (after a full collection) of the classes a task makes. */
function liveInstances(): Record<string, number> {
  const classes = { Run, TaskHandlerContext, StatelessHandlerContext };
  return Object.fromEntries(Object.entries(classes).map(([name, type]) => [name, queryObjects(type, { format: "count" })]));
}
