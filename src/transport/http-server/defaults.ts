/** The HTTP handlers' defaults, in one place. */
export const HTTP_DEFAULTS = {
  /** The largest request body accepted: 4 MiB. */
  maxBodyBytes: 4 * 1024 * 1024,
  /** SSE keep-alive comments every 15 s, under the idle timeouts of common proxies. */
  keepAliveMs: 15_000,
  maxSessions: 1000,
  /** A Streamable HTTP session nobody used for 30 min is closed. */
  sessionIdleTimeoutMs: 30 * 60_000,
  /** The SSE `retry` sent to clients: reconnect after 1 s. */
  retryMs: 1000,
} as const;
