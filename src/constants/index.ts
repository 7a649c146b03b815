/** The JSON-RPC version every MCP message carries. */
export const JSONRPC_VERSION = "2.0";

/** The session-era revisions of the MCP specification this library negotiates, oldest first. */
export const PROTOCOL_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;

export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

/** The revision offered first and answered when the peer asks for one we do not know. */
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = "2025-11-25";

/** The logging levels, least severe first (RFC 5424's, as every revision names them). */
export const LOGGING_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/** True when `version` is a revision this library speaks. */
export function isProtocolVersion(version: unknown): version is ProtocolVersion {
  return (PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

/** Request methods, by the name the spec gives them. */
export const METHODS = {
  initialize: "initialize",
  ping: "ping",
  toolsList: "tools/list",
  toolsCall: "tools/call",
  resourcesList: "resources/list",
  resourcesTemplatesList: "resources/templates/list",
  resourcesRead: "resources/read",
  resourcesSubscribe: "resources/subscribe",
  resourcesUnsubscribe: "resources/unsubscribe",
  promptsList: "prompts/list",
  promptsGet: "prompts/get",
  completionComplete: "completion/complete",
  loggingSetLevel: "logging/setLevel",
  samplingCreateMessage: "sampling/createMessage",
  rootsList: "roots/list",
  elicitationCreate: "elicitation/create",
  tasksGet: "tasks/get",
  tasksResult: "tasks/result",
  tasksList: "tasks/list",
  tasksCancel: "tasks/cancel",
} as const;

/** Notification methods, by the name the spec gives them. */
export const NOTIFICATIONS = {
  initialized: "notifications/initialized",
  cancelled: "notifications/cancelled",
  progress: "notifications/progress",
  message: "notifications/message",
  resourcesUpdated: "notifications/resources/updated",
  resourcesListChanged: "notifications/resources/list_changed",
  toolsListChanged: "notifications/tools/list_changed",
  promptsListChanged: "notifications/prompts/list_changed",
  rootsListChanged: "notifications/roots/list_changed",
  elicitationComplete: "notifications/elicitation/complete",
  tasksStatus: "notifications/tasks/status",
} as const;

export type RequestMethod = (typeof METHODS)[keyof typeof METHODS];
export type NotificationMethod = (typeof NOTIFICATIONS)[keyof typeof NOTIFICATIONS];

/** Keys of `params._meta` that the protocol itself reads. */
export const META_KEYS = {
  progressToken: "progressToken",
  traceparent: "traceparent",
  tracestate: "tracestate",
} as const;
