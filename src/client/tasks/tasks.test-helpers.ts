// Hand-written peers for the client's tasks. The stateless era's (2026-07-28): a raw JSON-RPC end of
// an in-memory pair that answers server/discover (declaring the tasks extension) and tools/list by
// itself, and every other request as the test says, in the exact wire shapes of the extension. The
// session era's (2025-11-25): a bare dispatcher declaring the capabilities a test gives.
import { JsonRpcDispatcher } from "../../jsonrpc/dispatcher/dispatcher.js";
import type { RequestHandler } from "../../jsonrpc/dispatcher/dispatcher.types.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import { MCPClient } from "../mcp-client/mcp-client.js";
import type { MCPClientOptions } from "../mcp-client/mcp-client.types.js";

export interface Message {
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
}
export type Reply = { readonly result: unknown } | { readonly error: { code: number; message: string; data?: unknown } } | "silence";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
const DISCOVERED = {
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "scripted", version: "1.0.0" } },
};

/**
 * A task on the wire (2026-07-28): `CreateTaskResult` with `resultType: "task"`, or with `resultType: "complete"` what `tasks/get` answers.
 */
export function wireTask(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    taskId: "t-1",
    status,
    createdAt: "2026-07-28T10:00:00.000Z",
    lastUpdatedAt: "2026-07-28T10:00:01.000Z",
    ttlMs: 60000,
    ...extra,
  };
}
export const created = (extra: Record<string, unknown> = {}): Reply => ({ result: { resultType: "task", ...wireTask("working", extra) } });
export const got = (status: string, extra: Record<string, unknown> = {}): Reply => ({
  result: { resultType: "complete", ...wireTask(status, extra) },
});
export const ack: Reply = { result: { resultType: "complete" } };
export const text = (value: string): { content: { type: "text"; text: string }[] } => ({ content: [{ type: "text", text: value }] });

export interface ScriptedPeer {
  readonly client: MCPClient;
  /** Every message the client sent, in order. */
  readonly requests: Message[];
  /** The params of each message of `method` the client sent. */
  readonly sent: (method: string) => Record<string, unknown>[];
}

/**
 * A client connected to a peer whose answer to each request is `answer(message)` (tools/list: `tools`
 * unless the script answers it); a notification gets no answer.
 */
export async function scriptedPeer(
  answer: (message: Message) => Reply | undefined,
  options: MCPClientOptions = {},
  tools: unknown[] = [],
): Promise<ScriptedPeer> {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  const requests: Message[] = [];
  await serverEnd.start({
    onMessage: (message) => {
      const request = message as Message;
      requests.push(request);
      if (request.id === undefined) return;
      const reply =
        request.method === "server/discover"
          ? { result: DISCOVERED }
          : (answer(request) ??
            (request.method === "tools/list"
              ? { result: { tools } }
              : { error: { code: -32601, message: `${String(request.method)} is not scripted` } }));
      if (reply !== "silence") void serverEnd.send({ jsonrpc: "2.0", id: request.id, ...reply });
    },
    onMalformed: () => undefined,
    onClose: () => undefined,
  });
  const client = new MCPClient({ name: "tasks", version: "1.0.0" }, { telemetry: null, ...options });
  await client.connect(clientEnd);
  const sent = (method: string): Record<string, unknown>[] =>
    requests.filter((message) => message.method === method).map((message) => message.params ?? {});
  return { client, requests, sent };
}

/** Answers `method` with each reply in turn, the last one for ever after. */
export function inTurn(method: string, ...replies: Reply[]): (message: Message) => Reply | undefined {
  let next = 0;
  return (message) => (message.method === method ? replies[Math.min(next++, replies.length - 1)] : undefined);
}

/** The first script that answers. */
export function scripts(...all: ((message: Message) => Reply | undefined)[]): (message: Message) => Reply | undefined {
  return (message) => {
    for (const script of all) {
      const reply = script(message);
      if (reply !== undefined) return reply;
    }
    return undefined;
  };
}

/** A client of revision 2025-11-25 connected to a hand-written server declaring `capabilities`, with `handlers` for its requests. */
export async function sessionPeer(
  handlers: Readonly<Record<string, RequestHandler>>,
  capabilities: Record<string, unknown>,
  options: MCPClientOptions = {},
): Promise<MCPClient> {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  const dispatcher = new JsonRpcDispatcher({ side: "server", telemetry: null });
  dispatcher.setRequestHandler("initialize", () => ({
    protocolVersion: "2025-11-25",
    capabilities,
    serverInfo: { name: "raw-tasks", version: "1.0.0" },
  }));
  for (const [method, handler] of Object.entries(handlers)) dispatcher.setRequestHandler(method, handler);
  await dispatcher.connect(serverEnd);
  const client = new MCPClient({ name: "tasks", version: "1.0.0" }, { telemetry: null, ...options });
  await client.connect(clientEnd);
  return client;
}
