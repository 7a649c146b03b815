// The client's middleware: layers around every request MCPClient sends, in either era (the calls of
// its API and those it makes itself, such as re-listing tools), in front of its response cache. A
// chain is composed once per method after the layers change; a client without layers sends as before.
import type { AnyProtocolVersion } from "../constants/index.js";
import type { CallOptions } from "../client/mcp-client/mcp-client.types.js";
import type { JsonObject } from "../types/types.js";
import { MethodLayers, type MiddlewareRequest } from "./chain.js";
import type { FeatureMethods } from "./feature-methods.js";

/** The requests a client sends, with their params and results (the era's own ones loosely typed). */
export interface ClientMethods extends FeatureMethods {
  "resources/subscribe": { params: { uri: string }; result: JsonObject };
  "resources/unsubscribe": { params: { uri: string }; result: JsonObject };
  "logging/setLevel": { params: JsonObject; result: JsonObject };
  ping: { params: undefined; result: JsonObject };
  "server/discover": { params: JsonObject | undefined; result: JsonObject };
  "subscriptions/listen": { params: JsonObject; result: JsonObject };
}

export type ClientMethod = keyof ClientMethods;

const CLIENT_METHODS: ReadonlySet<string> = /* @__PURE__ */ new Set<ClientMethod>([
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "ping",
  "server/discover",
  "subscriptions/listen",
  "tasks/get",
  "tasks/result",
  "tasks/list",
  "tasks/cancel",
  "tasks/update",
]);

/** What a client layer knows of a request besides its method and params. */
export interface ClientRequestContext {
  readonly era: "session" | "stateless";
  readonly protocolVersion: AnyProtocolVersion;
  /** The call's options (signal, timeout, `meta`…); a layer may pass others to `next`. */
  readonly options: CallOptions | undefined;
}

/** One request from the client, typed by its method (a union over the methods when `M` is several). */
export type ClientRequest<M extends ClientMethod = ClientMethod> = { [K in M]: MiddlewareRequest<K, ClientMethods[K]["params"]> }[M];

/** What sends a client request: the transport's path, or a layer in front of it. */
export type ClientHandler<M extends ClientMethod = ClientMethod> = (
  request: ClientRequest<M>,
  context: ClientRequestContext,
) => Promise<ClientMethods[M]["result"]>;

/** A client layer: `(next) => async (request, context) => …`. */
export type ClientMiddleware<M extends ClientMethod = ClientMethod> = (next: ClientHandler<M>) => ClientHandler<M>;

/** The layers in front of the requests a client sends. */
export function outgoingLayers(): MethodLayers<ClientRequestContext> {
  return new MethodLayers(CLIENT_METHODS, "client", "the client sends");
}
