// The server's middleware: layers around the feature methods (tools, resources, prompts, completion)
// as both eras serve them. Each era's request path finds a method's handler in the server's one
// table (MCPServer.featureHandlers); the layers are composed into that table when they change, so a
// layer sees the same request, with the same handler context, whichever era it came in.
import { profileOf } from "../protocol/profiles.js";
import type { FeatureHandler } from "../server/mcp-server/server-host.js";
import type { HandlerContext } from "../server/mcp-server/mcp-server.types.js";
import type { MiddlewareRequest, MiddlewareStack } from "./chain.js";
import type { FeatureMethods } from "./feature-methods.js";

/** The requests the server's middleware sees: their params and results. */
export type ServerMethods = FeatureMethods;

export type ServerMethod = keyof ServerMethods;

/** One request to the server, typed by its method (a union over the methods when `M` is several). */
export type ServerRequest<M extends ServerMethod = ServerMethod> = { [K in M]: MiddlewareRequest<K, ServerMethods[K]["params"]> }[M];

/** What runs a server request: the method's own handler, or a layer in front of it. */
export type ServerHandler<M extends ServerMethod = ServerMethod> = (request: ServerRequest<M>, context: HandlerContext) => ServerMethods[M]["result"] | Promise<ServerMethods[M]["result"]>;

/** A server layer: `(next) => (request, ctx) => …`. */
export type ServerMiddleware<M extends ServerMethod = ServerMethod> = (next: ServerHandler<M>) => ServerHandler<M>;

/** `feature` behind the layers that see `method`; `feature` itself when none does (no call added). */
export function layered(layers: MiddlewareStack<HandlerContext>, method: string, feature: FeatureHandler): FeatureHandler {
  // The innermost handler: the feature, with the revision profile of the request's own version.
  const own = (request: MiddlewareRequest, context: HandlerContext): unknown => feature(request.params as never, context, profileOf(context.protocolVersion));
  const chain = layers.compose(method, own);
  return chain === own ? feature : (params, context) => chain({ method, params }, context);
}
