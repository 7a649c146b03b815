// Which downstream request an upstream's question belongs to. The stateless era tells: a call's rounds
// of input are answered by that call's own `onInputRequired`. The session era does not: a server's
// sampling, elicitation or roots request names no request of ours, so the client's handlers forward it
// to the one proxied request in flight, and refuse it when there are none or several.
import type { MCPClient } from "../client/mcp-client/mcp-client.js";
import type { CallOptions, InputRound, MCPClientOptions } from "../client/mcp-client/mcp-client.types.js";
import { MCPClient as Client } from "../client/mcp-client/mcp-client.js";
import { METHODS } from "../constants/index.js";
import { JSONRPC_ERROR_CODES, MCP_CODES } from "../error-codes/error-codes.js";
import { JsonRpcError, MCPError } from "../error-codes/mcp-error.js";
import type { CreateMessageRequestParams, ElicitRequestParams, Implementation } from "../schemas/schemas.js";
import type { HandlerContext } from "../server/mcp-server/mcp-server.types.js";
import type { JsonObject } from "../types/types.js";

/** The options of a proxy's upstream client: all but the handlers the proxy gives it. */
export type ProxyClientOptions = Omit<MCPClientOptions, "sampling" | "elicitation" | "roots">;

const routers = new WeakMap<MCPClient, InputRouter>();

/** Forwards one request for input of the upstream to the downstream request `context` answers. */
export function forwardInput(context: HandlerContext, method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
  const options = signal === undefined ? {} : { signal };
  if (method === METHODS.samplingCreateMessage) return context.createMessage(params as CreateMessageRequestParams, options);
  if (method === METHODS.elicitationCreate) return context.elicitInput(params as ElicitRequestParams, options);
  if (method === METHODS.rootsList) return context.listRoots(options);
  return Promise.reject(new MCPError(MCP_CODES.METHOD_NOT_FOUND, `The proxy cannot forward ${method} to its downstream client`));
}

/** The downstream requests a proxy is answering through one upstream client. */
export class InputRouter {
  readonly #inFlight = new Set<HandlerContext>();

  /** Calls the upstream for the downstream request `context`: its cancel, progress and rounds of input go along. */
  async run<T>(context: HandlerContext, call: (options: CallOptions) => Promise<T>): Promise<T> {
    this.#inFlight.add(context);
    try {
      return await call({
        signal: context.signal,
        onProgress: ({ progress, total, message }) => void context.progress(progress, total, message),
        onInputRequired: (round) => answerRound(context, round),
      });
    } finally {
      this.#inFlight.delete(context);
    }
  }

  /** The downstream request in flight when there is exactly one. */
  single(): HandlerContext | undefined {
    return this.#inFlight.size === 1 ? [...this.#inFlight][0] : undefined;
  }

  /** A session-era question of the upstream, forwarded to the one downstream request in flight. */
  ask(method: string, params: unknown, signal: AbortSignal | undefined): Promise<unknown> {
    const context = this.single();
    if (context === undefined) {
      const why =
        this.#inFlight.size === 0
          ? "no proxied request is in flight"
          : `${this.#inFlight.size} proxied requests are in flight and ${method} does not say which one it belongs to`;
      return Promise.reject(new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_REQUEST, `The proxy cannot forward ${method}: ${why}`));
    }
    return forwardInput(context, method, params, signal);
  }
}

/** Answers one stateless-era round of the upstream through the downstream request, one question after the other. */
async function answerRound(context: HandlerContext, { inputRequests }: InputRound): Promise<JsonObject> {
  const answers: JsonObject = {};
  for (const [key, request] of Object.entries(inputRequests)) answers[key] = await forwardInput(context, request.method, request.params);
  return answers;
}

/** The router of `client`: the one its handlers ask when it was made by `proxyClient`, else one of its own. */
export function routerOf(client: MCPClient): InputRouter {
  let router = routers.get(client);
  if (router === undefined) routers.set(client, (router = new InputRouter()));
  return router;
}

/**
 * An MCPClient for a proxy's upstream: it declares sampling (with tools and context), elicitation
 * (form and URL) and roots, and answers each of them by asking the downstream request that caused it.
 */
export function proxyClient(clientInfo: Implementation, options: ProxyClientOptions = {}): MCPClient {
  const router = new InputRouter();
  const client = new Client(clientInfo, {
    ...options,
    sampling: {
      createMessage: (params, { signal }) => router.ask(METHODS.samplingCreateMessage, params, signal) as never,
      tools: true,
      context: true,
    },
    elicitation: {
      form: (params, { signal }) => router.ask(METHODS.elicitationCreate, params, signal) as never,
      url: (params, { signal }) => router.ask(METHODS.elicitationCreate, params, signal) as never,
    },
    roots: async () => ((await router.ask(METHODS.rootsList, undefined, undefined)) as { roots: never[] }).roots,
  });
  routers.set(client, router);
  return client;
}
