// Test support for several instances of one deployment in one process: three Streamable HTTP
// handlers sharing a session directory, an instance bus and an event store (in memory), each with a
// switch that cuts it off from them (as a process whose network or Redis went away), and a router
// in front — the client's fetch — that alternates between them, pins one, or treats one as dead.
import { afterEach } from "vitest";
import { MCPServer } from "../../../server/mcp-server/mcp-server.js";
import { InMemoryInstanceBus, type InstanceBus } from "../../../stores/instance-bus.js";
import { InMemorySessionDirectory, type SessionDirectory } from "../../../stores/session-directory.js";
import type { FetchLike } from "../../http-client/http-options.js";
import { InMemoryEventStore } from "../event-store.js";
import { Gate, httpRequest, testServer } from "../http-server.test-helpers.js";
import type { StreamableHttpHandler, StreamableHttpOptions } from "../http-server.types.js";
import { sessionCluster } from "./session-cluster.js";
import { streamableHttpHandler } from "../streamable-handler.js";

export interface Instance {
  readonly name: string;
  readonly server: MCPServer;
  readonly handler: StreamableHttpHandler;
  /** Cuts the instance off from the directory and the bus (every call fails, every message is lost), or joins it again. */
  cut(off: boolean): void;
  /** Makes these directory methods fail for this instance (none: all work again). */
  fail(...methods: (keyof SessionDirectory)[]): void;
}

export interface Deployment {
  readonly instances: readonly Instance[];
  readonly directory: InMemorySessionDirectory;
  readonly bus: InMemoryInstanceBus;
  readonly events: InMemoryEventStore;
  readonly gate: Gate;
  /** The client's fetch: by `route` (an instance index per request), skipping dead instances. */
  readonly fetch: FetchLike;
  /** Which instance serves the next request: "alternate" (the default) or one by index. */
  route: "alternate" | number;
  /** Instances the router treats as dead: requests skip them and their open responses break. */
  readonly dead: Set<number>;
  /** Requests per instance. */
  readonly counts: number[];
  /** Treats instance `index` as a dead process: the router skips it, its open responses break, and it is cut off. */
  kill(index: number): void;
  close(): Promise<void>;
}

// Long enough that a loaded machine still renews in time (three renewals per lease), short enough for takeover tests.
export const LEASE_MS = 600;

/** A directory whose calls fail while `cut()` says so, or when `failing` names them. */
function cuttable(directory: SessionDirectory, cut: () => boolean, failing: ReadonlySet<string>): SessionDirectory {
  return new Proxy(directory, {
    get(target, name: keyof SessionDirectory) {
      const method = target[name] as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) =>
        cut() || failing.has(name) ? Promise.reject(new Error("directory unreachable")) : method.apply(target, args);
    },
  });
}

/** A bus on which nothing is sent or heard while `cut()` says so. */
function cuttableBus(bus: InstanceBus, cut: () => boolean): InstanceBus {
  return {
    listen: (instance, onMessage) => bus.listen(instance, (message) => (cut() ? undefined : onMessage(message))),
    send: (instance, message) => (cut() ? Promise.reject(new Error("bus unreachable")) : bus.send(instance, message)),
  };
}

export function deployment(count = 3, options: StreamableHttpOptions = {}, serverOf: (gate: Gate) => MCPServer = testServer): Deployment {
  const directory = new InMemorySessionDirectory();
  const bus = new InMemoryInstanceBus();
  const events = new InMemoryEventStore();
  const gate = new Gate();
  const instances: Instance[] = [];
  for (let index = 0; index < count; index++) {
    let off = false;
    const failing = new Set<string>();
    const server = serverOf(gate);
    const cluster = sessionCluster({
      instance: `i${index}`,
      directory: cuttable(directory, () => off, failing),
      bus: cuttableBus(bus, () => off),
      leaseMs: LEASE_MS,
    });
    const handler = streamableHttpHandler(server, { eventStore: events, cluster, ...options });
    const fail = (...methods: string[]): void => {
      failing.clear();
      for (const method of methods) failing.add(method);
    };
    instances.push({ name: `i${index}`, server, handler, cut: (value) => void (off = value), fail });
  }
  const dead = new Set<number>();
  const counts = instances.map(() => 0);
  const broken = new Map<number, AbortController[]>();
  let turn = 0;
  const pick = (route: "alternate" | number): number => {
    for (let tries = 0; tries < count; tries++) {
      const index = route === "alternate" ? turn++ % count : (route + tries) % count;
      if (!dead.has(index)) return index;
    }
    throw new Error("every instance is dead");
  };
  const result: Deployment = {
    instances,
    directory,
    bus,
    events,
    gate,
    route: "alternate",
    dead,
    counts,
    fetch: async (url, init) => {
      const index = pick(result.route);
      counts[index] = (counts[index] as number) + 1;
      const controller = new AbortController();
      broken.set(index, [...(broken.get(index) ?? []), controller]);
      const response = await (instances[index] as Instance).handler.fetch(new Request(url, { ...init, signal: init?.signal ?? null }));
      return new Response(response.body?.pipeThrough(breakable(controller.signal)) ?? null, response);
    },
    kill(index) {
      dead.add(index);
      (instances[index] as Instance).cut(true);
      for (const controller of broken.get(index) ?? []) controller.abort();
    },
    async close() {
      for (const instance of instances) await instance.handler.close();
    },
  };
  return result;
}

/** Passes a body through until `signal` aborts, then errors it (a connection reset). */
function breakable(signal: AbortSignal): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream({
    start(controller) {
      signal.addEventListener("abort", () => controller.error(new Error("connection reset")), { once: true });
    },
    transform(chunk, controller) {
      controller.enqueue(chunk);
    },
  });
}

/**
 * Deployments of a test file, each closed after its test: `cluster(options)` makes three instances
 * whose clients reconnect 20 ms after a broken stream (the server's `retry`).
 */
export function useDeployments(): (options?: StreamableHttpOptions, serverOf?: (gate: Gate) => MCPServer) => Deployment {
  const open: Deployment[] = [];
  afterEach(async () => {
    for (const each of open.splice(0)) await each.close();
  });
  return (options = {}, serverOf = testServer) => {
    const made = deployment(3, { retryMs: 20, ...options }, serverOf);
    open.push(made);
    return made;
  };
}

export const handlerOf = (through: Deployment, index: number): StreamableHttpHandler => (through.instances[index] as Instance).handler;

let requests = 0;

/** One request of a session, straight to one handler (no router), with an id of its own. */
export function post(
  handler: StreamableHttpHandler,
  session: string,
  method: string,
  params?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return handler.fetch(
    httpRequest({
      body: { jsonrpc: "2.0", id: ++requests, method, ...(params === undefined ? {} : { params }) },
      session,
      version: "2025-11-25",
      headers,
    }),
  );
}

/** Waits out the lease of an instance that stopped renewing it. */
export function leaseRunsOut(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, LEASE_MS + 50));
}
