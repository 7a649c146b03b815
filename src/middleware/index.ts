export type { Middleware, MiddlewareRequest, NextHandler } from "./chain.js";
export type { ClientHandler, ClientMethod, ClientMethods, ClientMiddleware, ClientRequest, ClientRequestContext } from "./client-middleware.js";
export type { IncomingContext, IncomingHandler, IncomingMethod, IncomingMethods, IncomingMiddleware, IncomingRequest } from "./incoming-middleware.js";
export { retry, type RetryOptions } from "./builtins/retry.js";
export { callLog, timing, type CallLogEntry } from "./builtins/observe.js";
