// Revision 2024-11-05, the first session-era revision: the base every later revision edits.
import * as z from "zod/mini";

import { LOGGING_LEVELS, METHODS, NOTIFICATIONS } from "../../constants/index.js";
import type { RevisionCodec } from "../codec.js";
import { MetaSchema, ProgressTokenSchema, RequestIdSchema, RequestMetaSchema } from "../jsonrpc.js";

// ---- Building blocks ----

export const CursorSchema = z.string();
export const RoleSchema = z.enum(["user", "assistant"]);
export const LoggingLevelSchema = z.enum(LOGGING_LEVELS);

/** Any object schema; the spec types these fields as a bare `object`. */
export const OpenObjectSchema = z.looseObject({});
export const UnitIntervalSchema = z.number().check(z.gte(0), z.lte(1));

export const RequestParamsSchema = z.looseObject({ _meta: z.optional(RequestMetaSchema) });
export const NotificationParamsSchema = z.looseObject({ _meta: z.optional(MetaSchema) });
export const ResultSchema = z.looseObject({ _meta: z.optional(MetaSchema) });
export const EmptyResultSchema = ResultSchema;

export const PaginatedRequestParamsSchema = z.extend(RequestParamsSchema, { cursor: z.optional(CursorSchema) });
export const PaginatedResultSchema = z.extend(ResultSchema, { nextCursor: z.optional(CursorSchema) });

export const AnnotationsSchema = z.looseObject({
  audience: z.optional(z.array(RoleSchema)),
  priority: z.optional(UnitIntervalSchema),
});

// ---- Lifecycle ----

export const ImplementationSchema = z.looseObject({ name: z.string(), version: z.string() });

const ListChangedCapabilitySchema = z.looseObject({ listChanged: z.optional(z.boolean()) });

export const ClientCapabilitiesSchema = z.looseObject({
  experimental: z.optional(z.record(z.string(), OpenObjectSchema)),
  roots: z.optional(ListChangedCapabilitySchema),
  sampling: z.optional(OpenObjectSchema),
});

export const ServerCapabilitiesSchema = z.looseObject({
  experimental: z.optional(z.record(z.string(), OpenObjectSchema)),
  logging: z.optional(OpenObjectSchema),
  prompts: z.optional(ListChangedCapabilitySchema),
  resources: z.optional(z.extend(ListChangedCapabilitySchema, { subscribe: z.optional(z.boolean()) })),
  tools: z.optional(ListChangedCapabilitySchema),
});

export const InitializeRequestParamsSchema = z.extend(RequestParamsSchema, {
  protocolVersion: z.string(),
  capabilities: ClientCapabilitiesSchema,
  clientInfo: ImplementationSchema,
});

export const InitializeResultSchema = z.extend(ResultSchema, {
  protocolVersion: z.string(),
  capabilities: ServerCapabilitiesSchema,
  serverInfo: ImplementationSchema,
  instructions: z.optional(z.string()),
});

export const PingRequestParamsSchema = z.optional(RequestParamsSchema);
export const InitializedNotificationParamsSchema = z.optional(NotificationParamsSchema);

// ---- Utilities: cancellation, progress, logging, completion ----

export const CancelledNotificationParamsSchema = z.extend(NotificationParamsSchema, {
  requestId: RequestIdSchema,
  reason: z.optional(z.string()),
});

export const ProgressNotificationParamsSchema = z.extend(NotificationParamsSchema, {
  progressToken: ProgressTokenSchema,
  progress: z.number(),
  total: z.optional(z.number()),
});

export const SetLevelRequestParamsSchema = z.extend(RequestParamsSchema, { level: LoggingLevelSchema });

export const LoggingMessageNotificationParamsSchema = z.extend(NotificationParamsSchema, {
  level: LoggingLevelSchema,
  logger: z.optional(z.string()),
  data: z.unknown(),
});

export const ResourceReferenceSchema = z.looseObject({ type: z.literal("ref/resource"), uri: z.string() });
export const PromptReferenceSchema = z.looseObject({ type: z.literal("ref/prompt"), name: z.string() });

export const CompleteRequestParamsSchema = z.extend(RequestParamsSchema, {
  ref: z.discriminatedUnion("type", [PromptReferenceSchema, ResourceReferenceSchema]),
  argument: z.looseObject({ name: z.string(), value: z.string() }),
});

export const CompleteResultSchema = z.extend(ResultSchema, {
  completion: z.looseObject({
    values: z.array(z.string()).check(z.maxLength(100)),
    total: z.optional(z.int()),
    hasMore: z.optional(z.boolean()),
  }),
});

// ---- Content ----

export const TextContentSchema = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
  annotations: z.optional(AnnotationsSchema),
});

export const ImageContentSchema = z.looseObject({
  type: z.literal("image"),
  data: z.string(),
  mimeType: z.string(),
  annotations: z.optional(AnnotationsSchema),
});

export const ResourceContentsSchema = z.looseObject({ uri: z.string(), mimeType: z.optional(z.string()) });
export const TextResourceContentsSchema = z.extend(ResourceContentsSchema, { text: z.string() });
export const BlobResourceContentsSchema = z.extend(ResourceContentsSchema, { blob: z.string() });

export const EmbeddedResourceSchema = z.looseObject({
  type: z.literal("resource"),
  resource: z.union([TextResourceContentsSchema, BlobResourceContentsSchema]),
  annotations: z.optional(AnnotationsSchema),
});

/** What a prompt message or a tool result may carry in this revision. */
export const ContentBlockSchema = z.discriminatedUnion("type", [TextContentSchema, ImageContentSchema, EmbeddedResourceSchema]);

// ---- Resources ----

export const ResourceSchema = z.looseObject({
  uri: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
  mimeType: z.optional(z.string()),
  annotations: z.optional(AnnotationsSchema),
  size: z.optional(z.int()),
});

export const ResourceTemplateSchema = z.looseObject({
  uriTemplate: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
  mimeType: z.optional(z.string()),
  annotations: z.optional(AnnotationsSchema),
});

export const ListResourcesRequestParamsSchema = z.optional(PaginatedRequestParamsSchema);
export const ListResourcesResultSchema = z.extend(PaginatedResultSchema, { resources: z.array(ResourceSchema) });
export const ListResourceTemplatesRequestParamsSchema = z.optional(PaginatedRequestParamsSchema);
export const ListResourceTemplatesResultSchema = z.extend(PaginatedResultSchema, {
  resourceTemplates: z.array(ResourceTemplateSchema),
});

export const ResourceRequestParamsSchema = z.extend(RequestParamsSchema, { uri: z.string() });
export const ReadResourceRequestParamsSchema = ResourceRequestParamsSchema;
export const SubscribeRequestParamsSchema = ResourceRequestParamsSchema;
export const UnsubscribeRequestParamsSchema = ResourceRequestParamsSchema;
export const ReadResourceResultSchema = z.extend(ResultSchema, {
  contents: z.array(z.union([TextResourceContentsSchema, BlobResourceContentsSchema])),
});

export const ResourceUpdatedNotificationParamsSchema = z.extend(NotificationParamsSchema, { uri: z.string() });
export const ListChangedNotificationParamsSchema = z.optional(NotificationParamsSchema);

// ---- Prompts ----

export const PromptArgumentSchema = z.looseObject({
  name: z.string(),
  description: z.optional(z.string()),
  required: z.optional(z.boolean()),
});

export const PromptSchema = z.looseObject({
  name: z.string(),
  description: z.optional(z.string()),
  arguments: z.optional(z.array(PromptArgumentSchema)),
});

export const PromptMessageSchema = z.looseObject({ role: RoleSchema, content: ContentBlockSchema });

export const ListPromptsRequestParamsSchema = z.optional(PaginatedRequestParamsSchema);
export const ListPromptsResultSchema = z.extend(PaginatedResultSchema, { prompts: z.array(PromptSchema) });

export const GetPromptRequestParamsSchema = z.extend(RequestParamsSchema, {
  name: z.string(),
  arguments: z.optional(z.record(z.string(), z.string())),
});

export const GetPromptResultSchema = z.extend(ResultSchema, {
  description: z.optional(z.string()),
  messages: z.array(PromptMessageSchema),
});

// ---- Tools ----

/** The restricted JSON Schema a tool declares for its input: always an object at the root. */
export const ToolInputSchemaSchema = z.looseObject({
  type: z.literal("object"),
  properties: z.optional(z.record(z.string(), OpenObjectSchema)),
  required: z.optional(z.array(z.string())),
});

export const ToolSchema = z.looseObject({
  name: z.string(),
  description: z.optional(z.string()),
  inputSchema: ToolInputSchemaSchema,
});

export const ListToolsRequestParamsSchema = z.optional(PaginatedRequestParamsSchema);
export const ListToolsResultSchema = z.extend(PaginatedResultSchema, { tools: z.array(ToolSchema) });

export const CallToolRequestParamsSchema = z.extend(RequestParamsSchema, {
  name: z.string(),
  arguments: z.optional(z.record(z.string(), z.unknown())),
});

export const CallToolResultSchema = z.extend(ResultSchema, {
  content: z.array(ContentBlockSchema),
  isError: z.optional(z.boolean()),
});

// ---- Sampling ----

export const SamplingContentSchema = z.discriminatedUnion("type", [TextContentSchema, ImageContentSchema]);
export const SamplingMessageSchema = z.looseObject({ role: RoleSchema, content: SamplingContentSchema });

export const ModelHintSchema = z.looseObject({ name: z.optional(z.string()) });

export const ModelPreferencesSchema = z.looseObject({
  hints: z.optional(z.array(ModelHintSchema)),
  costPriority: z.optional(UnitIntervalSchema),
  speedPriority: z.optional(UnitIntervalSchema),
  intelligencePriority: z.optional(UnitIntervalSchema),
});

export const CreateMessageRequestParamsSchema = z.extend(RequestParamsSchema, {
  messages: z.array(SamplingMessageSchema),
  modelPreferences: z.optional(ModelPreferencesSchema),
  systemPrompt: z.optional(z.string()),
  includeContext: z.optional(z.enum(["none", "thisServer", "allServers"])),
  temperature: z.optional(z.number()),
  maxTokens: z.int(),
  stopSequences: z.optional(z.array(z.string())),
  metadata: z.optional(OpenObjectSchema),
});

// The spec lists endTurn, stopSequence and maxTokens but leaves stopReason an open string.
export const CreateMessageResultSchema = z.extend(ResultSchema, {
  ...SamplingMessageSchema.shape,
  model: z.string(),
  stopReason: z.optional(z.string()),
});

// ---- Roots ----

export const RootSchema = z.looseObject({ uri: z.string(), name: z.optional(z.string()) });
export const ListRootsRequestParamsSchema = z.optional(RequestParamsSchema);
export const ListRootsResultSchema = z.extend(ResultSchema, { roots: z.array(RootSchema) });

// ---- Codec ----

const ping = { params: PingRequestParamsSchema, result: EmptyResultSchema };

export const codec = {
  version: "2024-11-05",
  batching: false,
  clientRequests: {
    [METHODS.ping]: ping,
    [METHODS.initialize]: { params: InitializeRequestParamsSchema, result: InitializeResultSchema },
    [METHODS.completionComplete]: { params: CompleteRequestParamsSchema, result: CompleteResultSchema },
    [METHODS.loggingSetLevel]: { params: SetLevelRequestParamsSchema, result: EmptyResultSchema },
    [METHODS.promptsList]: { params: ListPromptsRequestParamsSchema, result: ListPromptsResultSchema },
    [METHODS.promptsGet]: { params: GetPromptRequestParamsSchema, result: GetPromptResultSchema },
    [METHODS.resourcesList]: { params: ListResourcesRequestParamsSchema, result: ListResourcesResultSchema },
    [METHODS.resourcesTemplatesList]: {
      params: ListResourceTemplatesRequestParamsSchema,
      result: ListResourceTemplatesResultSchema,
    },
    [METHODS.resourcesRead]: { params: ReadResourceRequestParamsSchema, result: ReadResourceResultSchema },
    [METHODS.resourcesSubscribe]: { params: SubscribeRequestParamsSchema, result: EmptyResultSchema },
    [METHODS.resourcesUnsubscribe]: { params: UnsubscribeRequestParamsSchema, result: EmptyResultSchema },
    [METHODS.toolsList]: { params: ListToolsRequestParamsSchema, result: ListToolsResultSchema },
    [METHODS.toolsCall]: { params: CallToolRequestParamsSchema, result: CallToolResultSchema },
  },
  serverRequests: {
    [METHODS.ping]: ping,
    [METHODS.samplingCreateMessage]: { params: CreateMessageRequestParamsSchema, result: CreateMessageResultSchema },
    [METHODS.rootsList]: { params: ListRootsRequestParamsSchema, result: ListRootsResultSchema },
  },
  clientNotifications: {
    [NOTIFICATIONS.cancelled]: CancelledNotificationParamsSchema,
    [NOTIFICATIONS.progress]: ProgressNotificationParamsSchema,
    [NOTIFICATIONS.initialized]: InitializedNotificationParamsSchema,
    [NOTIFICATIONS.rootsListChanged]: ListChangedNotificationParamsSchema,
  },
  serverNotifications: {
    [NOTIFICATIONS.cancelled]: CancelledNotificationParamsSchema,
    [NOTIFICATIONS.progress]: ProgressNotificationParamsSchema,
    [NOTIFICATIONS.message]: LoggingMessageNotificationParamsSchema,
    [NOTIFICATIONS.resourcesUpdated]: ResourceUpdatedNotificationParamsSchema,
    [NOTIFICATIONS.resourcesListChanged]: ListChangedNotificationParamsSchema,
    [NOTIFICATIONS.toolsListChanged]: ListChangedNotificationParamsSchema,
    [NOTIFICATIONS.promptsListChanged]: ListChangedNotificationParamsSchema,
  },
} as const satisfies RevisionCodec;
