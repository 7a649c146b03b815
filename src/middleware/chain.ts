// Middleware as handler → handler (the Go SDK's shape, on both sides): a layer is given the next
// handler once, when its chain is composed, and gives back the handler that runs in its place. A
// layer may change the request before it calls `next`, answer without calling it, or change what
// `next` gave. Chains are composed per method when the stack changes, never per request; a method no
// layer applies to keeps its own handler, so an empty stack costs nothing.
import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError } from "../error-codes/mcp-error.js";

/** One request as a layer sees it. */
export interface MiddlewareRequest<M extends string = string, P = unknown> {
  readonly method: M;
  readonly params: P;
}

/** What runs a request: the method's own handler, or a layer in front of it. */
export type NextHandler<C, Q extends MiddlewareRequest = MiddlewareRequest, R = unknown> = (request: Q, context: C) => R | Promise<R>;

/** A layer: given the next handler, the handler that runs in its place. */
export type Middleware<C, Q extends MiddlewareRequest = MiddlewareRequest, R = unknown> = (
  next: NextHandler<C, Q, R>,
) => NextHandler<C, Q, R>;

interface Layer<C> {
  /** The one method the layer sees, or every method (undefined). */
  readonly method: string | undefined;
  readonly middleware: Middleware<C>;
}

/** The layers of one side, in the order they were added: the first added runs first (outermost). */
export class MiddlewareStack<C> {
  readonly #layers: Layer<C>[] = [];

  /** Adds a layer for `method`, or for every method; gives what takes it out again. */
  add(method: string | undefined, middleware: Middleware<C>): () => void {
    if (typeof middleware !== "function")
      throw new MCPError(MCP_CODES.INVALID_PARAMS, "A middleware is a function from the next handler to a handler");
    const layer = { method, middleware };
    this.#layers.push(layer);
    return () => void this.#layers.splice(this.#layers.indexOf(layer), 1);
  }

  /** `base` behind every layer that sees `method`, the first added outermost; `base` itself when none does. */
  compose(method: string, base: NextHandler<C>): NextHandler<C> {
    let handler = base;
    for (let index = this.#layers.length - 1; index >= 0; index--) {
      const layer = this.#layers[index] as Layer<C>;
      if (layer.method !== undefined && layer.method !== method) continue;
      const composed: unknown = layer.middleware(handler);
      if (typeof composed !== "function")
        throw new MCPError(
          MCP_CODES.INVALID_PARAMS,
          `A middleware for ${method} gave no handler: it must return the function that runs in next's place`,
        );
      handler = composed as NextHandler<C>;
    }
    return handler;
  }
}

/** A side's layers of one kind, and the chains composed from them (per method, until the layers change). */
export class MethodLayers<C> {
  readonly #stack = new MiddlewareStack<C>();
  readonly #chains = new Map<string, NextHandler<C>>();

  /** `methods`: those a layer may name; `kind` and `seen`: what the refusal says ("No client middleware sees x: the client sends …"). */
  readonly #methods: ReadonlySet<string>;
  readonly #kind: string;
  readonly #seen: string;

  constructor(methods: ReadonlySet<string>, kind: string, seen: string) {
    this.#methods = methods;
    this.#kind = kind;
    this.#seen = seen;
  }

  /** `add(layer)`: a layer for every method; `add(method, layer)`: for one of `methods` (the arguments of the sides' `use…` overloads). */
  add(first: unknown, second?: unknown): void {
    const method = typeof first === "string" ? first : undefined;
    if (method !== undefined && !this.#methods.has(method))
      throw new MCPError(
        MCP_CODES.INVALID_PARAMS,
        `No ${this.#kind} middleware sees ${method}: ${this.#seen} ${[...this.#methods].join(", ")}`,
      );
    this.#stack.add(method, (second ?? first) as never);
    this.#chains.clear();
  }

  /** Runs `request` through the layers that see its method, in front of `base` (the same one for a method every time). */
  run(request: MiddlewareRequest, context: C, base: NextHandler<C>): Promise<unknown> {
    try {
      let chain = this.#chains.get(request.method);
      if (chain === undefined) {
        chain = this.#stack.compose(request.method, base);
        this.#chains.set(request.method, chain);
      }
      return Promise.resolve(chain(request, context));
    } catch (error) {
      // A layer that gives no handler, or one that throws before it returns its promise: the run's rejection.
      return Promise.reject(error);
    }
  }
}
