// A layer for the ordering tests of either side: it writes `name` before and after the rest of the chain.
import type { WatchingMiddleware } from "./builtins/observe.js";

export function tracing(name: string, log: string[]): WatchingMiddleware {
  return (next) => async (request, context) => {
    log.push(`${name} > ${request.method}`);
    const result = await next(request, context);
    log.push(`${name} < ${request.method}`);
    return result;
  };
}
