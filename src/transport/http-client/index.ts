export { DEFAULT_ENDPOINT_TIMEOUT_MS, HttpSseTransport, type HttpSseTransportOptions } from "./http-sse.js";
export {
  connectHttp,
  FALLBACK_STATUSES,
  FallbackHttpTransport,
  type ConnectHttpOptions,
  type FallbackHttpOptions,
  type HttpConnectable,
} from "./http-fallback.js";
export { ERROR_BODY_EXCERPT_BYTES, httpStatusOf, isSessionExpired, type HttpErrorData } from "./http-error.js";
export type { FetchBody, FetchInit, FetchLike, FetchResponse, HeaderValues, HeadersSource, HttpClientOptions } from "./http-options.js";
export type { ChunkReader } from "./body.js";
export type { EventSourceConstructor, EventSourceEventLike, EventSourceInitLike, EventSourceLike } from "./event-source.js";
export { DEFAULT_RECONNECTION, MAX_SERVER_RETRY_MS, type ReconnectionOptions } from "./reconnection.js";
export { DEFAULT_MAX_EVENT_BYTES, SseParser, type SseEvent, type SseItem } from "./sse-parser.js";
export { DEFAULT_CLOSE_TIMEOUT_MS, StreamableHttpTransport, type StreamableHttpTransportOptions } from "./streamable-http.js";
