// The server's middleware: layers around every request a server answers, in both eras — the feature
// methods (tools, resources, prompts, completion), whose handlers both eras' request paths find in
// the server's one table (MCPServer.featureHandlers), and those it answers itself (initialize, ping…),
// composed once per server (MCPServer.layeredOwn). A layer sees the same request, with the same
// handler context, whichever era it came in.
import { profileOf } from "../protocol/profiles.js";
import type { FeatureHandler } from "../server/mcp-server/server-host.js";
import type { HandlerContext } from "../server/mcp-server/mcp-server.types.js";
import type { MiddlewareRequest, MiddlewareStack } from "./chain.js";
import type { FeatureMethods } from "./feature-methods.js";
import type {
  DiscoverResult,
  InitializeRequestParams,
  InitializeResult,
  SetLevelRequestParams,
  SubscribeRequestParams,
  SubscriptionsListenRequestParams,
  SubscriptionsListenResult,
} from "../schemas/schemas.js";
import type { JsonObject } from "../types/types.js";

/** The requests the server's middleware sees: the feature methods and those the server answers itself, in either era. */
export interface ServerMethods extends FeatureMethods {
  initialize: { params: InitializeRequestParams; result: InitializeResult };
  ping: { params: JsonObject | undefined; result: JsonObject };
  "logging/setLevel": { params: SetLevelRequestParams; result: JsonObject };
  "resources/subscribe": { params: SubscribeRequestParams; result: JsonObject };
  "resources/unsubscribe": { params: SubscribeRequestParams; result: JsonObject };
  "server/discover": { params: JsonObject | undefined; result: DiscoverResult };
  "subscriptions/listen": { params: SubscriptionsListenRequestParams; result: SubscriptionsListenResult };
}

/** The methods a server answers itself (a session's own, the stateless era's own), which layers see as well as the feature methods. */
export const OWN_METHODS = [
  "initialize",
  "ping",
  "logging/setLevel",
  "resources/subscribe",
  "resources/unsubscribe",
  "server/discover",
  "subscriptions/listen",
] as const satisfies readonly (keyof ServerMethods)[];

export type ServerMethod = keyof ServerMethods;

/** One request to the server, typed by its method (a union over the methods when `M` is several). */
export type ServerRequest<M extends ServerMethod = ServerMethod> = { [K in M]: MiddlewareRequest<K, ServerMethods[K]["params"]> }[M];

/** What runs a server request: the method's own handler, or a layer in front of it. */
export type ServerHandler<M extends ServerMethod = ServerMethod> = (
  request: ServerRequest<M>,
  context: HandlerContext,
) => ServerMethods[M]["result"] | Promise<ServerMethods[M]["result"]>;

/** A server layer: `(next) => (request, ctx) => …`. */
export type ServerMiddleware<M extends ServerMethod = ServerMethod> = (next: ServerHandler<M>) => ServerHandler<M>;

/** `feature` behind the layers that see `method`; `feature` itself when none does (no call added). */
export function layered(layers: MiddlewareStack<HandlerContext>, method: string, feature: FeatureHandler): FeatureHandler {
  // The innermost handler: the feature, with the revision profile of the request's own version.
  const own = (request: MiddlewareRequest, context: HandlerContext): unknown =>
    feature(request.params as never, context, profileOf(context.protocolVersion));
  const chain = layers.compose(method, own);
  return chain === own ? feature : (params, context) => chain({ method, params }, context);
}
