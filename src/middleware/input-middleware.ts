// Layers around a server's own requests for input — `ctx.createMessage`, `ctx.elicitInput`,
// `ctx.listRoots` — in either era (a request to a session's client, or an input-required round of
// the stateless era). `aroundInput(layer)` is itself a server layer: it hands the handler a context
// whose input API goes through `layer` first, so a server without it carries none of this.
import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError } from "../error-codes/mcp-error.js";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
} from "../schemas/schemas.js";
import type { HandlerContext, InputOptions } from "../server/mcp-server/mcp-server.types.js";
import type { MiddlewareRequest } from "./chain.js";
import type { ServerMiddleware } from "./server-middleware.js";

/** The server's requests for input, with their params and results. */
export interface InputMethods {
  "sampling/createMessage": { params: CreateMessageRequestParams; result: CreateMessageResult };
  "elicitation/create": { params: ElicitRequestParams; result: ElicitResult };
  "roots/list": { params: undefined; result: ListRootsResult };
}

export type InputMethod = keyof InputMethods;

/** One request for input as a layer sees it: its method, params and the handler's options for it. */
export type InputAsk<M extends InputMethod = InputMethod> = {
  [K in M]: MiddlewareRequest<K, InputMethods[K]["params"]> & { readonly options: InputOptions | undefined };
}[M];

/** What asks the client: the request's own input API, or a layer in front of it. The context is the handler's. */
export type InputHandler<M extends InputMethod = InputMethod> = (
  request: InputAsk<M>,
  context: HandlerContext,
) => Promise<InputMethods[M]["result"]>;

export type InputMiddleware<M extends InputMethod = InputMethod> = (next: InputHandler<M>) => InputHandler<M>;

/** The context's own input API. */
function ask(request: InputAsk, context: HandlerContext): Promise<unknown> {
  if (request.method === "sampling/createMessage") return context.createMessage(request.params, request.options);
  if (request.method === "elicitation/create") return context.elicitInput(request.params, request.options);
  return context.listRoots(request.options);
}

/**
 * A server layer that puts `layer` in front of the handler's requests for input (all three, or the
 * one named): `server.use(aroundInput("elicitation/create", (next) => async (request, ctx) => …))`.
 * In the stateless era a handler runs again for each round of input, and its asks with it.
 */
export function aroundInput(layer: InputMiddleware): ServerMiddleware;
export function aroundInput<M extends InputMethod>(method: M, layer: InputMiddleware<M>): ServerMiddleware;
export function aroundInput(first: InputMethod | InputMiddleware, second?: InputMiddleware): ServerMiddleware {
  const only = typeof first === "string" ? first : undefined;
  if (only !== undefined && !["sampling/createMessage", "elicitation/create", "roots/list"].includes(only)) {
    throw new MCPError(MCP_CODES.INVALID_PARAMS, `aroundInput sees sampling/createMessage, elicitation/create and roots/list, not ${only}`);
  }
  const layer = second ?? first;
  if (typeof layer !== "function")
    throw new MCPError(MCP_CODES.INVALID_PARAMS, "A middleware is a function from the next handler to a handler");
  const composed: unknown = layer(ask as InputHandler);
  if (typeof composed !== "function")
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      "An input middleware gave no handler: it must return the function that runs in next's place",
    );
  const own = composed as InputHandler;
  const chain: InputHandler =
    only === undefined ? own : (request, context) => (request.method === only ? own(request, context) : (ask(request, context) as never));
  return (next) => (request, context) => next(request, new InputContext(context, chain));
}

/** The handler's context, with its input API behind the layer. */
class InputContext implements HandlerContext {
  constructor(
    private readonly inner: HandlerContext,
    private readonly chain: InputHandler,
  ) {}

  get requestId(): HandlerContext["requestId"] {
    return this.inner.requestId;
  }
  get meta(): HandlerContext["meta"] {
    return this.inner.meta;
  }
  get inbound(): HandlerContext["inbound"] {
    return this.inner.inbound;
  }
  get protocolVersion(): HandlerContext["protocolVersion"] {
    return this.inner.protocolVersion;
  }
  get era(): HandlerContext["era"] {
    return this.inner.era;
  }
  get client(): HandlerContext["client"] {
    return this.inner.client;
  }
  get logLevel(): HandlerContext["logLevel"] {
    return this.inner.logLevel;
  }
  get principal(): unknown {
    return this.inner.principal;
  }
  get signal(): AbortSignal {
    return this.inner.signal;
  }
  get session(): HandlerContext["session"] {
    return this.inner.session;
  }
  progress(progress: number, total?: number, message?: string): Promise<void> {
    return this.inner.progress(progress, total, message);
  }
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    return this.inner.log(level, data, logger);
  }
  createMessage(params: CreateMessageRequestParams, options?: InputOptions): Promise<CreateMessageResult> {
    return this.chain({ method: "sampling/createMessage", params, options }, this.inner) as Promise<CreateMessageResult>;
  }
  elicitInput(params: ElicitRequestParams, options?: InputOptions): Promise<ElicitResult> {
    return this.chain({ method: "elicitation/create", params, options }, this.inner) as Promise<ElicitResult>;
  }
  listRoots(options?: InputOptions): Promise<ListRootsResult> {
    return this.chain({ method: "roots/list", params: undefined, options }, this.inner) as Promise<ListRootsResult>;
  }
}
