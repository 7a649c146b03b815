/** The JSON-RPC version every MCP message carries. */
export const JSONRPC_VERSION = "2.0";

/** The session-era revisions of the MCP specification this library negotiates, oldest first. */
export const PROTOCOL_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;

export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

/** The revision offered first and answered when the peer asks for one we do not know. */
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = "2025-11-25";

/** The logging levels, least severe first (RFC 5424's, as every revision names them). */
export const LOGGING_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/** True when `version` is a session-era revision this library speaks. */
export function isProtocolVersion(version: unknown): version is ProtocolVersion {
  return (PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

/** The stateless-era revisions (no initialize, no sessions: the version travels in each request's `_meta`), oldest first. */
export const STATELESS_PROTOCOL_VERSIONS = ["2026-07-28"] as const;

export type StatelessProtocolVersion = (typeof STATELESS_PROTOCOL_VERSIONS)[number];

/** Every revision this library speaks, of both eras, oldest first. */
export const ALL_PROTOCOL_VERSIONS = [...PROTOCOL_VERSIONS, ...STATELESS_PROTOCOL_VERSIONS] as const;

export type AnyProtocolVersion = (typeof ALL_PROTOCOL_VERSIONS)[number];

/** True when `version` is a stateless-era revision this library speaks. */
export function isStatelessProtocolVersion(version: unknown): version is StatelessProtocolVersion {
  return (STATELESS_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
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
  /** 2026-07-28, the tasks extension: answers a task's requests for input. */
  tasksUpdate: "tasks/update",
  serverDiscover: "server/discover",
  subscriptionsListen: "subscriptions/listen",
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
  /** 2026-07-28, the tasks extension: a task as `tasks/get` has it, on a listen stream that asked for its id. */
  tasks: "notifications/tasks",
  subscriptionsAcknowledged: "notifications/subscriptions/acknowledged",
} as const;

export type RequestMethod = (typeof METHODS)[keyof typeof METHODS];
export type NotificationMethod = (typeof NOTIFICATIONS)[keyof typeof NOTIFICATIONS];

/** Keys of `params._meta` that the protocol itself reads. */
export const META_KEYS = {
  progressToken: "progressToken",
  traceparent: "traceparent",
  tracestate: "tracestate",
  /** Stateless era: every request's revision, client capabilities, client and log level. */
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  /** Stateless era: the server in each result's `_meta`. */
  serverInfo: "io.modelcontextprotocol/serverInfo",
  /** Stateless era: the listen request a notification belongs to. */
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
  /** 2025-11-25: the task a message belongs to (`{ taskId }`). */
  relatedTask: "io.modelcontextprotocol/related-task",
  /** 2025-11-25: on a created task's result, a string the host may give its model at once. */
  modelImmediateResponse: "io.modelcontextprotocol/model-immediate-response",
} as const;

/** The identifiers of the protocol's extensions (a capability's key under `extensions`). */
export const EXTENSIONS = {
  /** 2026-07-28: tasks (SEP-2663). */
  tasks: "io.modelcontextprotocol/tasks",
} as const;
