export { streamableHttpHandler } from "./streamable-handler.js";
export { sseHttpHandler } from "./sse-handler.js";
export { InMemoryEventStore, type EventStore, type InMemoryEventStoreOptions, type StoredEvent, type StreamRef } from "./event-store.js";
export { HTTP_DEFAULTS } from "./defaults.js";
export type * from "./http-server.types.js";
export { sessionCluster, type SessionClusterOptions } from "./cluster/session-cluster.js";
export type { ClusterHost, HttpCluster } from "./cluster-seam.js";
