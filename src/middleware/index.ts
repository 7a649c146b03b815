export type { Middleware, MiddlewareRequest, NextHandler } from "./chain.js";
export type {
  ClientHandler,
  ClientMethod,
  ClientMethods,
  ClientMiddleware,
  ClientRequest,
  ClientRequestContext,
} from "./client-middleware.js";
export type {
  LayeredNotification,
  NotificationLayerContext,
  NotificationMethods,
  NotificationMiddleware,
  NotificationNext,
} from "./notification-middleware.js";
export type {
  IncomingContext,
  IncomingHandler,
  IncomingMethod,
  IncomingMethods,
  IncomingMiddleware,
  IncomingRequest,
} from "./incoming-middleware.js";
export { retry, type RetryOptions } from "./builtins/retry.js";
export { callLog, timing, type CallLogEntry, type WatchingMiddleware } from "./builtins/observe.js";
export type { ServerHandler, ServerMethod, ServerMethods, ServerMiddleware, ServerRequest } from "./server-middleware.js";
export { rateLimit, type Bucket, type RateLimitOptions } from "./builtins/rate-limit.js";
export { sizeLimit, type SizeLimitOptions } from "./builtins/size-limit.js";
export { requireScopes, type RequireScopesOptions } from "./builtins/require-scopes.js";
export { authorize } from "./builtins/authorize.js";
export { resultCache, type ResultCacheOptions } from "./builtins/result-cache.js";
export {
  aroundInput,
  type InputHandler,
  type InputMethod,
  type InputMethods,
  type InputMiddleware,
  type InputAsk,
} from "./input-middleware.js";
