// The client's layers in front of the server's requests for input — sampling, elicitation, roots —
// before the client's own handlers answer them. In the session era these arrive as server-to-client
// requests, in the stateless era inside an input-required result; both go through the same
// responders, so a layer sees them the same way in either era.
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
} from "../schemas/schemas.js";
import type { InputResponder } from "../client/mcp-client/server-requests.js";
import type { ServerRequestContext } from "../client/mcp-client/mcp-client.types.js";
import { MethodLayers, type MiddlewareRequest, type NextHandler } from "./chain.js";
import { withFields } from "../types/objects.js";

/** The server's requests for input, with their params and results. */
export interface IncomingMethods {
  "sampling/createMessage": { params: CreateMessageRequestParams; result: CreateMessageResult };
  "elicitation/create": { params: ElicitRequestParams; result: ElicitResult };
  "roots/list": { params: undefined; result: ListRootsResult };
}

export type IncomingMethod = keyof IncomingMethods;

/** What an incoming layer knows of the server's request: its id, signal and `_meta`, and the era. */
export interface IncomingContext extends ServerRequestContext {
  readonly era: "session" | "stateless";
}

/** One request of the server's, typed by its method. */
export type IncomingRequest<M extends IncomingMethod = IncomingMethod> = {
  [K in M]: MiddlewareRequest<K, IncomingMethods[K]["params"]>;
}[M];

/** What answers the server's request: the client's handler, or a layer in front of it. */
export type IncomingHandler<M extends IncomingMethod = IncomingMethod> = (
  request: IncomingRequest<M>,
  context: IncomingContext,
) => Promise<IncomingMethods[M]["result"]>;

/** An incoming layer: `(next) => async (request, context) => …`. */
export type IncomingMiddleware<M extends IncomingMethod = IncomingMethod> = (next: IncomingHandler<M>) => IncomingHandler<M>;

/** The layers in front of the server's requests for input. */
export function incomingLayers(): MethodLayers<IncomingContext> {
  return new MethodLayers(
    new Set<IncomingMethod>(["sampling/createMessage", "elicitation/create", "roots/list"]),
    "client",
    "the server asks for",
  );
}

/**
 * The client's responders, each behind the incoming layers that are there when a request comes (a
 * responder of a method no layer sees runs as it is). Only the methods the client declared have
 * responders: a layer cannot answer what the client did not offer.
 */
export function layeredResponders(
  responders: ReadonlyMap<string, InputResponder>,
  layers: () => MethodLayers<IncomingContext> | undefined,
  era: () => "session" | "stateless",
): ReadonlyMap<string, InputResponder> {
  const layered = new Map<string, InputResponder>();
  for (const [method, respond] of responders) {
    const base: NextHandler<IncomingContext> = (request, context) => respond(request.params as never, context);
    layered.set(method, (params, context) => {
      const present = layers();
      return present === undefined ? respond(params, context) : present.run({ method, params }, withFields(context, { era: era() }), base);
    });
  }
  return layered;
}
