// Revision 2026-07-28, the first stateless revision: no initialize and no session. Each request
// carries its revision and the client's capabilities in `_meta`, each result says what it is
// (`resultType`), a server that needs input from the client answers with an input-required result
// instead of sending requests of its own, and `subscriptions/listen` replaces resources/subscribe.
import * as z from "zod/mini";

import { META_KEYS, METHODS, NOTIFICATIONS } from "../../constants/index.js";
import type { RevisionCodec } from "../codec.js";
import { JsonRpcErrorObjectSchema, MetaSchema, ProgressTokenSchema, RequestIdSchema } from "../jsonrpc.js";
import * as previous from "./2025-11-25.js";

export * from "./2025-11-25.js";

const optionalObject = z.optional(previous.OpenObjectSchema);
const extensionsField = { extensions: z.optional(z.record(z.string(), previous.OpenObjectSchema)) };

// ---- Capabilities, declared per request (client) or in server/discover (server) ----

// Tasks left the core protocol for an extension; roots lost its list_changed notification.
export const ClientCapabilitiesSchema = z.extend(z.omit(previous.ClientCapabilitiesSchema, { tasks: true }), {
  roots: optionalObject,
  ...extensionsField,
});

export const ServerCapabilitiesSchema = z.extend(z.omit(previous.ServerCapabilitiesSchema, { tasks: true }), extensionsField);

// ---- `_meta` of requests, notifications and results ----

/** What every request's `params._meta` carries in place of the initialize handshake. */
export const RequestMetaSchema = z.looseObject({
  progressToken: z.optional(ProgressTokenSchema),
  [META_KEYS.protocolVersion]: z.string(),
  [META_KEYS.clientCapabilities]: ClientCapabilitiesSchema,
  [META_KEYS.clientInfo]: z.optional(previous.ImplementationSchema),
  [META_KEYS.logLevel]: z.optional(previous.LoggingLevelSchema),
});

/** A notification names the `subscriptions/listen` request whose stream it travels on, if any. */
export const NotificationMetaSchema = z.looseObject({ [META_KEYS.subscriptionId]: z.optional(RequestIdSchema) });

export const ResultMetaSchema = z.looseObject({ [META_KEYS.serverInfo]: z.optional(previous.ImplementationSchema) });

// ---- Base shapes ----

export const RequestParamsSchema = z.looseObject({ _meta: RequestMetaSchema });
export const NotificationParamsSchema = z.looseObject({ _meta: z.optional(NotificationMetaSchema) });

/** The result types the core protocol defines; an extension may add others, which a peer without it refuses. */
export const ResultTypeSchema = z.enum(["complete", "input_required"]);

// A result without resultType comes from an older server and counts as complete.
export const ResultSchema = z.looseObject({ _meta: z.optional(ResultMetaSchema), resultType: z.optional(z.literal("complete")) });
export const EmptyResultSchema = ResultSchema;
const resultFields = ResultSchema.shape;

export const PaginatedRequestParamsSchema = z.extend(RequestParamsSchema, { cursor: z.optional(previous.CursorSchema) });
export const PaginatedResultSchema = z.extend(ResultSchema, { nextCursor: z.optional(previous.CursorSchema) });

export const CacheScopeSchema = z.enum(["public", "private"]);
// Servers must send both; a client reads a missing ttlMs as 0 and a negative one as 0, so neither refuses a result.
const cacheFields = { ttlMs: z.optional(z.int()), cacheScope: z.optional(CacheScopeSchema) };

// ---- Input the server asks for (multi round-trip requests) ----

// The three former server-to-client requests, now only ever inside an input-required result:
// their params carry neither `_meta` nor `task`, and a URL elicitation no elicitationId.
export const ElicitRequestFormParamsSchema = z.looseObject({
  mode: z.optional(z.literal("form")),
  message: z.string(),
  requestedSchema: previous.ElicitRequestedSchemaSchema,
});
export const ElicitRequestURLParamsSchema = z.looseObject({ mode: z.literal("url"), message: z.string(), url: z.string() });
// Form first: a URL request names its mode, so the form shape refuses it by that field alone.
export const ElicitRequestParamsSchema = z.union([ElicitRequestFormParamsSchema, ElicitRequestURLParamsSchema]);

const structuredContentField = { structuredContent: z.optional(z.unknown()) };
export const ToolResultContentSchema = z.extend(previous.ToolResultContentSchema, structuredContentField);
export const SamplingContentSchema = z.discriminatedUnion("type", [
  previous.TextContentSchema,
  previous.ImageContentSchema,
  previous.AudioContentSchema,
  previous.ToolUseContentSchema,
  ToolResultContentSchema,
]);
export const SamplingMessageContentBlockSchema = SamplingContentSchema;
const samplingContentField = { content: z.union([SamplingContentSchema, z.array(SamplingContentSchema)]) };
export const SamplingMessageSchema = z.extend(previous.SamplingMessageSchema, samplingContentField);
export const CreateMessageResultSchema = z.extend(previous.CreateMessageResultSchema, samplingContentField);

// ---- Tools ----

// Any JSON Schema 2020-12 keyword may appear; only the object root is required of an input schema.
export const ToolInputSchemaSchema = z.looseObject({ $schema: z.optional(z.string()), type: z.literal("object") });
export const ToolOutputSchemaSchema = z.looseObject({ $schema: z.optional(z.string()) });
export const ToolSchema = z.extend(z.omit(previous.ToolSchema, { execution: true }), {
  inputSchema: ToolInputSchemaSchema,
  outputSchema: z.optional(ToolOutputSchemaSchema),
});

export const CreateMessageRequestParamsSchema = z.extend(z.omit(previous.CreateMessageRequestParamsSchema, { _meta: true, task: true }), {
  messages: z.array(SamplingMessageSchema),
  tools: z.optional(z.array(ToolSchema)),
});
export const ListRootsRequestParamsSchema = z.optional(z.looseObject({ _meta: z.optional(MetaSchema) }));

/** One request of an input-required result, told apart by its method. */
export const InputRequestSchema = z.discriminatedUnion("method", [
  z.looseObject({ method: z.literal(METHODS.elicitationCreate), params: ElicitRequestParamsSchema }),
  z.looseObject({ method: z.literal(METHODS.samplingCreateMessage), params: CreateMessageRequestParamsSchema }),
  z.looseObject({ method: z.literal(METHODS.rootsList), params: ListRootsRequestParamsSchema }),
]);
/** The server's requests, keyed by names it chose. */
export const InputRequestsSchema = z.record(z.string(), InputRequestSchema);

// An answer names no method: the server knows each one's kind by the key it asked under and checks
// it against that kind's schema; here it only has to be one of the three answers.
export const InputResponseSchema = z.union([previous.ElicitResultSchema, CreateMessageResultSchema, previous.ListRootsResultSchema]);
export const InputResponsesSchema = z.record(z.string(), InputResponseSchema);

// At least one of inputRequests and requestState: one shape with the requests, one with the state.
const inputRequiredFields = { _meta: z.optional(ResultMetaSchema), resultType: z.literal("input_required") };
const InputRequiredWithRequestsSchema = z.looseObject({
  ...inputRequiredFields,
  inputRequests: InputRequestsSchema,
  requestState: z.optional(z.string()),
});
const InputRequiredWithStateSchema = z.looseObject({
  ...inputRequiredFields,
  inputRequests: z.optional(InputRequestsSchema),
  requestState: z.string(),
});
export const InputRequiredResultSchema = z.union([InputRequiredWithRequestsSchema, InputRequiredWithStateSchema]);

/** A method that may ask for input answers with its own result or an input-required one. */
function orInputRequired<T extends z.ZodMiniType>(result: T) {
  return z.union([result, InputRequiredWithRequestsSchema, InputRequiredWithStateSchema]);
}

/** What the client sends back when it retries: the answers by the server's keys, and the state as it came. */
const inputResponseFields = { inputResponses: z.optional(InputResponsesSchema), requestState: z.optional(z.string()) };

// ---- Requests and results ----

export const DiscoverRequestParamsSchema = RequestParamsSchema;
export const DiscoverResultSchema = z.extend(ResultSchema, {
  supportedVersions: z.array(z.string()),
  capabilities: ServerCapabilitiesSchema,
  instructions: z.optional(z.string()),
  ...cacheFields,
});

export const CompleteRequestParamsSchema = z.extend(previous.CompleteRequestParamsSchema, { _meta: RequestMetaSchema });
export const CompleteResultSchema = z.extend(previous.CompleteResultSchema, resultFields);

export const ListPromptsRequestParamsSchema = PaginatedRequestParamsSchema;
export const ListPromptsResultSchema = z.extend(previous.ListPromptsResultSchema, { ...resultFields, ...cacheFields });
export const GetPromptRequestParamsSchema = z.extend(previous.GetPromptRequestParamsSchema, {
  _meta: RequestMetaSchema,
  ...inputResponseFields,
});
// The results a method may answer instead with an input-required one declare resultType before their
// required fields, so a pre-check tells the two forms apart by it (src/schemas/precheck.ts).
export const GetPromptResultSchema = z.extend(ResultSchema, {
  description: previous.GetPromptResultSchema.shape.description,
  messages: previous.GetPromptResultSchema.shape.messages,
});

export const ListResourcesRequestParamsSchema = PaginatedRequestParamsSchema;
export const ListResourcesResultSchema = z.extend(previous.ListResourcesResultSchema, { ...resultFields, ...cacheFields });
export const ListResourceTemplatesRequestParamsSchema = PaginatedRequestParamsSchema;
export const ListResourceTemplatesResultSchema = z.extend(previous.ListResourceTemplatesResultSchema, { ...resultFields, ...cacheFields });
export const ReadResourceRequestParamsSchema = z.extend(previous.ReadResourceRequestParamsSchema, {
  _meta: RequestMetaSchema,
  ...inputResponseFields,
});
export const ReadResourceResultSchema = z.extend(ResultSchema, {
  contents: previous.ReadResourceResultSchema.shape.contents,
  ...cacheFields,
});

export const ListToolsRequestParamsSchema = PaginatedRequestParamsSchema;
export const ListToolsResultSchema = z.extend(PaginatedResultSchema, { tools: z.array(ToolSchema), ...cacheFields });
export const CallToolRequestParamsSchema = z.extend(z.omit(previous.CallToolRequestParamsSchema, { task: true }), {
  _meta: RequestMetaSchema,
  ...inputResponseFields,
});
export const CallToolResultSchema = z.extend(ResultSchema, {
  content: previous.CallToolResultSchema.shape.content,
  ...structuredContentField,
  isError: previous.CallToolResultSchema.shape.isError,
});

// ---- The tasks extension (io.modelcontextprotocol/tasks) ----
// A request that declared the extension in its `_meta` may be answered with a task the server made;
// the client follows it with tasks/get, answers its requests for input with tasks/update, and may
// cancel it. Tasks left the core protocol: tasks/result and tasks/list are gone, and times are named
// `ttlMs` and `pollIntervalMs`.

export const TaskSchema = z.looseObject({
  taskId: z.string(),
  status: previous.TaskStatusSchema,
  statusMessage: z.optional(z.string()),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttlMs: z.nullable(z.int()),
  pollIntervalMs: z.optional(z.int()),
});
const taskFields = TaskSchema.shape;

/** A task with what its status brings: the outstanding requests for input, the result, or the JSON-RPC error. */
function detailed<T extends Record<string, z.core.SomeType>>(extra: T) {
  return z.discriminatedUnion("status", [
    z.looseObject({ ...taskFields, ...extra, status: z.literal("working") }),
    z.looseObject({ ...taskFields, ...extra, status: z.literal("input_required"), inputRequests: InputRequestsSchema }),
    z.looseObject({ ...taskFields, ...extra, status: z.literal("completed"), result: previous.OpenObjectSchema }),
    z.looseObject({ ...taskFields, ...extra, status: z.literal("failed"), error: JsonRpcErrorObjectSchema }),
    z.looseObject({ ...taskFields, ...extra, status: z.literal("cancelled") }),
  ]);
}
export const DetailedTaskSchema = detailed({});

/** The answer to a request the server made a task of: the task itself, flat, and nothing of its outcome. */
export const CreateTaskResultSchema = z.extend(TaskSchema, { _meta: z.optional(ResultMetaSchema), resultType: z.literal("task") });

const TaskIdRequestParamsSchema = z.extend(RequestParamsSchema, { taskId: z.string() });
export const GetTaskRequestParamsSchema = TaskIdRequestParamsSchema;
export const GetTaskResultSchema = detailed(resultFields);
// The answers are checked against what each key asked for, by the server; an answer to a key it
// does not wait for is ignored whatever it is, so here any value passes.
export const UpdateTaskRequestParamsSchema = z.extend(TaskIdRequestParamsSchema, { inputResponses: z.record(z.string(), z.unknown()) });
export const UpdateTaskResultSchema = ResultSchema;
export const CancelTaskRequestParamsSchema = TaskIdRequestParamsSchema;
export const CancelTaskResultSchema = ResultSchema;

// ---- Subscriptions ----

/** The notifications a listen request opts in to, and those the server agreed to send. */
export const SubscriptionFilterSchema = z.looseObject({
  toolsListChanged: z.optional(z.boolean()),
  promptsListChanged: z.optional(z.boolean()),
  resourcesListChanged: z.optional(z.boolean()),
  resourceSubscriptions: z.optional(z.array(z.string())),
  /** The tasks extension: the tasks whose changes the stream carries (`notifications/tasks`). */
  taskIds: z.optional(z.array(z.string())),
});
export const SubscriptionsListenRequestParamsSchema = z.extend(RequestParamsSchema, { notifications: SubscriptionFilterSchema });
/** The answer that ends a subscription gracefully; it names the subscription it ends. */
export const SubscriptionsListenResultSchema = z.extend(ResultSchema, {
  _meta: z.extend(ResultMetaSchema, { [META_KEYS.subscriptionId]: RequestIdSchema }),
});

// ---- Notifications ----

const notificationMetaField = { _meta: z.optional(NotificationMetaSchema) };
// Without tasks, a cancellation names its request again.
export const CancelledNotificationParamsSchema = z.extend(previous.CancelledNotificationParamsSchema, {
  ...notificationMetaField,
  requestId: RequestIdSchema,
});
export const ProgressNotificationParamsSchema = z.extend(previous.ProgressNotificationParamsSchema, notificationMetaField);
export const LoggingMessageNotificationParamsSchema = z.extend(previous.LoggingMessageNotificationParamsSchema, notificationMetaField);
export const ResourceUpdatedNotificationParamsSchema = z.extend(previous.ResourceUpdatedNotificationParamsSchema, notificationMetaField);
export const ListChangedNotificationParamsSchema = z.optional(NotificationParamsSchema);
export const SubscriptionsAcknowledgedNotificationParamsSchema = z.extend(NotificationParamsSchema, {
  notifications: SubscriptionFilterSchema,
});
export const TasksNotificationParamsSchema = detailed(notificationMetaField);

// ---- Error data ----

/** The spec gives a -32020 (header mismatch) error no data of its own: any value, or none. */
export const HeaderMismatchErrorDataSchema = z.unknown();
/** The `data` of a -32021 error: the client capabilities the request needed and did not declare. */
export const MissingRequiredClientCapabilityErrorDataSchema = z.looseObject({ requiredCapabilities: ClientCapabilitiesSchema });
/** The `data` of a -32022 error: the revisions the server speaks, and the one asked for. */
export const UnsupportedProtocolVersionErrorDataSchema = z.looseObject({ supported: z.array(z.string()), requested: z.string() });

// ---- Codec ----

export const codec = {
  version: "2026-07-28",
  batching: false,
  clientRequests: {
    [METHODS.serverDiscover]: { params: DiscoverRequestParamsSchema, result: DiscoverResultSchema },
    [METHODS.completionComplete]: { params: CompleteRequestParamsSchema, result: CompleteResultSchema },
    [METHODS.promptsList]: { params: ListPromptsRequestParamsSchema, result: ListPromptsResultSchema },
    [METHODS.promptsGet]: { params: GetPromptRequestParamsSchema, result: orInputRequired(GetPromptResultSchema) },
    [METHODS.resourcesList]: { params: ListResourcesRequestParamsSchema, result: ListResourcesResultSchema },
    [METHODS.resourcesTemplatesList]: { params: ListResourceTemplatesRequestParamsSchema, result: ListResourceTemplatesResultSchema },
    [METHODS.resourcesRead]: { params: ReadResourceRequestParamsSchema, result: orInputRequired(ReadResourceResultSchema) },
    [METHODS.subscriptionsListen]: { params: SubscriptionsListenRequestParamsSchema, result: SubscriptionsListenResultSchema },
    [METHODS.toolsList]: { params: ListToolsRequestParamsSchema, result: ListToolsResultSchema },
    [METHODS.toolsCall]: {
      params: CallToolRequestParamsSchema,
      result: z.union([CallToolResultSchema, InputRequiredWithRequestsSchema, InputRequiredWithStateSchema, CreateTaskResultSchema]),
    },
    [METHODS.tasksGet]: { params: GetTaskRequestParamsSchema, result: GetTaskResultSchema },
    [METHODS.tasksUpdate]: { params: UpdateTaskRequestParamsSchema, result: UpdateTaskResultSchema },
    [METHODS.tasksCancel]: { params: CancelTaskRequestParamsSchema, result: CancelTaskResultSchema },
  },
  // Servers send no requests: what they need from the client comes back as an input-required result.
  serverRequests: {},
  clientNotifications: {
    [NOTIFICATIONS.cancelled]: CancelledNotificationParamsSchema,
  },
  // A server cancels only to end a listen stream on stdio.
  serverNotifications: {
    [NOTIFICATIONS.cancelled]: CancelledNotificationParamsSchema,
    [NOTIFICATIONS.progress]: ProgressNotificationParamsSchema,
    [NOTIFICATIONS.message]: LoggingMessageNotificationParamsSchema,
    [NOTIFICATIONS.resourcesUpdated]: ResourceUpdatedNotificationParamsSchema,
    [NOTIFICATIONS.resourcesListChanged]: ListChangedNotificationParamsSchema,
    [NOTIFICATIONS.toolsListChanged]: ListChangedNotificationParamsSchema,
    [NOTIFICATIONS.promptsListChanged]: ListChangedNotificationParamsSchema,
    [NOTIFICATIONS.subscriptionsAcknowledged]: SubscriptionsAcknowledgedNotificationParamsSchema,
    [NOTIFICATIONS.tasks]: TasksNotificationParamsSchema,
  },
} as const satisfies RevisionCodec;
