// Revision 2025-11-25: 2025-06-18 plus icons, tasks, URL-mode elicitation and richer enum fields,
// and tool use inside sampling.
import * as z from "zod/mini";

import { METHODS, NOTIFICATIONS } from "../../constants/index.js";
import type { RevisionCodec } from "../codec.js";
import { MetaSchema, RequestIdSchema } from "../jsonrpc.js";
import * as previous from "./2025-06-18.js";

export * from "./2025-06-18.js";

const metaField = { _meta: z.optional(MetaSchema) };
const optionalObject = z.optional(previous.OpenObjectSchema);

// ---- Icons ----

export const IconSchema = z.looseObject({
  src: z.string(),
  mimeType: z.optional(z.string()),
  sizes: z.optional(z.array(z.string())),
  theme: z.optional(z.enum(["light", "dark"])),
});
const iconsField = { icons: z.optional(z.array(IconSchema)) };

// ---- Tasks ----

export const TaskStatusSchema = z.enum(["working", "input_required", "completed", "failed", "cancelled"]);

/** What a requester puts in `params.task` to run a request as a task. */
export const TaskMetadataSchema = z.looseObject({ ttl: z.optional(z.int()) });

/** What ties a message to a task, under `_meta["io.modelcontextprotocol/related-task"]`. */
export const RelatedTaskMetadataSchema = z.looseObject({ taskId: z.string() });

export const TaskSchema = z.looseObject({
  taskId: z.string(),
  status: TaskStatusSchema,
  statusMessage: z.optional(z.string()),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttl: z.nullable(z.int()),
  pollInterval: z.optional(z.int()),
});

export const TaskAugmentedRequestParamsSchema = z.extend(previous.RequestParamsSchema, {
  task: z.optional(TaskMetadataSchema),
});
const taskField = { task: z.optional(TaskMetadataSchema) };

export const CreateTaskResultSchema = z.extend(previous.ResultSchema, { task: TaskSchema });

const TaskIdRequestParamsSchema = z.extend(previous.RequestParamsSchema, { taskId: z.string() });
export const GetTaskRequestParamsSchema = TaskIdRequestParamsSchema;
export const GetTaskPayloadRequestParamsSchema = TaskIdRequestParamsSchema;
export const CancelTaskRequestParamsSchema = TaskIdRequestParamsSchema;
export const ListTasksRequestParamsSchema = z.optional(previous.PaginatedRequestParamsSchema);

export const GetTaskResultSchema = z.extend(previous.ResultSchema, TaskSchema.shape);
export const CancelTaskResultSchema = GetTaskResultSchema;
/** The original request's result; its shape depends on the method that created the task. */
export const GetTaskPayloadResultSchema = previous.ResultSchema;
export const ListTasksResultSchema = z.extend(previous.PaginatedResultSchema, { tasks: z.array(TaskSchema) });

export const TaskStatusNotificationParamsSchema = z.extend(previous.NotificationParamsSchema, TaskSchema.shape);

/** A task-augmented request answers either with its own result or with the task it started. */
function orCreatedTask<T extends z.ZodMiniType>(result: T) {
  return z.union([result, CreateTaskResultSchema]);
}

// ---- Lifecycle ----

export const ImplementationSchema = z.extend(previous.ImplementationSchema, {
  ...iconsField,
  description: z.optional(z.string()),
  websiteUrl: z.optional(z.string()),
});

export const ClientCapabilitiesSchema = z.extend(previous.ClientCapabilitiesSchema, {
  sampling: z.optional(z.looseObject({ context: optionalObject, tools: optionalObject })),
  elicitation: z.optional(z.looseObject({ form: optionalObject, url: optionalObject })),
  tasks: z.optional(
    z.looseObject({
      list: optionalObject,
      cancel: optionalObject,
      requests: z.optional(
        z.looseObject({
          sampling: z.optional(z.looseObject({ createMessage: optionalObject })),
          elicitation: z.optional(z.looseObject({ create: optionalObject })),
        }),
      ),
    }),
  ),
});

export const ServerCapabilitiesSchema = z.extend(previous.ServerCapabilitiesSchema, {
  tasks: z.optional(
    z.looseObject({
      list: optionalObject,
      cancel: optionalObject,
      requests: z.optional(z.looseObject({ tools: z.optional(z.looseObject({ call: optionalObject })) })),
    }),
  ),
});

export const InitializeRequestParamsSchema = z.extend(previous.InitializeRequestParamsSchema, {
  capabilities: ClientCapabilitiesSchema,
  clientInfo: ImplementationSchema,
});
export const InitializeResultSchema = z.extend(previous.InitializeResultSchema, {
  capabilities: ServerCapabilitiesSchema,
  serverInfo: ImplementationSchema,
});

// Task-based requests are cancelled with tasks/cancel, so the request id became optional.
export const CancelledNotificationParamsSchema = z.extend(previous.CancelledNotificationParamsSchema, {
  requestId: z.optional(RequestIdSchema),
});

// ---- Resources and content ----

export const ResourceSchema = z.extend(previous.ResourceSchema, iconsField);
export const ResourceLinkSchema = z.extend(ResourceSchema, { type: z.literal("resource_link") });
export const ResourceTemplateSchema = z.extend(previous.ResourceTemplateSchema, iconsField);

export const ContentBlockSchema = z.discriminatedUnion("type", [
  previous.TextContentSchema,
  previous.ImageContentSchema,
  previous.AudioContentSchema,
  ResourceLinkSchema,
  previous.EmbeddedResourceSchema,
]);

export const ListResourcesResultSchema = z.extend(previous.ListResourcesResultSchema, {
  resources: z.array(ResourceSchema),
});
export const ListResourceTemplatesResultSchema = z.extend(previous.ListResourceTemplatesResultSchema, {
  resourceTemplates: z.array(ResourceTemplateSchema),
});

// ---- Prompts ----

export const PromptSchema = z.extend(previous.PromptSchema, iconsField);
export const ListPromptsResultSchema = z.extend(previous.ListPromptsResultSchema, { prompts: z.array(PromptSchema) });
export const PromptMessageSchema = z.extend(previous.PromptMessageSchema, { content: ContentBlockSchema });
export const GetPromptResultSchema = z.extend(previous.GetPromptResultSchema, {
  messages: z.array(PromptMessageSchema),
});

// ---- Tools ----

const schemaDialectField = { $schema: z.optional(z.string()) };
export const ToolInputSchemaSchema = z.extend(previous.ToolInputSchemaSchema, schemaDialectField);
export const ToolOutputSchemaSchema = z.extend(previous.ToolOutputSchemaSchema, schemaDialectField);

export const ToolExecutionSchema = z.looseObject({
  taskSupport: z.optional(z.enum(["forbidden", "optional", "required"])),
});

export const ToolSchema = z.extend(previous.ToolSchema, {
  ...iconsField,
  inputSchema: ToolInputSchemaSchema,
  outputSchema: z.optional(ToolOutputSchemaSchema),
  execution: z.optional(ToolExecutionSchema),
});
export const ListToolsResultSchema = z.extend(previous.ListToolsResultSchema, { tools: z.array(ToolSchema) });

export const CallToolRequestParamsSchema = z.extend(previous.CallToolRequestParamsSchema, taskField);
export const CallToolResultSchema = z.extend(previous.CallToolResultSchema, { content: z.array(ContentBlockSchema) });

// ---- Sampling with tool use ----

export const ToolUseContentSchema = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  ...metaField,
});

export const ToolResultContentSchema = z.looseObject({
  type: z.literal("tool_result"),
  toolUseId: z.string(),
  content: z.array(ContentBlockSchema),
  structuredContent: z.optional(z.record(z.string(), z.unknown())),
  isError: z.optional(z.boolean()),
  ...metaField,
});

/** One block of a sampling message (the spec's SamplingMessageContentBlock). */
export const SamplingContentSchema = z.discriminatedUnion("type", [
  previous.TextContentSchema,
  previous.ImageContentSchema,
  previous.AudioContentSchema,
  ToolUseContentSchema,
  ToolResultContentSchema,
]);
export const SamplingMessageContentBlockSchema = SamplingContentSchema;
const samplingContentField = { content: z.union([SamplingContentSchema, z.array(SamplingContentSchema)]) };

export const SamplingMessageSchema = z.extend(previous.SamplingMessageSchema, { ...samplingContentField, ...metaField });

export const ToolChoiceSchema = z.looseObject({ mode: z.optional(z.enum(["auto", "required", "none"])) });

export const CreateMessageRequestParamsSchema = z.extend(previous.CreateMessageRequestParamsSchema, {
  messages: z.array(SamplingMessageSchema),
  tools: z.optional(z.array(ToolSchema)),
  toolChoice: z.optional(ToolChoiceSchema),
  ...taskField,
});

// The spec adds "toolUse" to the listed stop reasons; the field stays an open string.
export const CreateMessageResultSchema = z.extend(previous.CreateMessageResultSchema, samplingContentField);

// ---- Elicitation ----

const fieldLabels = { title: z.optional(z.string()), description: z.optional(z.string()) };
const TitledOptionSchema = z.looseObject({ const: z.string(), title: z.string() });

export const StringSchemaSchema = z.extend(previous.StringSchemaSchema, { default: z.optional(z.string()) });
export const NumberSchemaSchema = z.extend(previous.NumberSchemaSchema, { default: z.optional(z.number()) });

export const UntitledSingleSelectEnumSchemaSchema = z.looseObject({
  type: z.literal("string"),
  ...fieldLabels,
  enum: z.array(z.string()),
  default: z.optional(z.string()),
});

export const TitledSingleSelectEnumSchemaSchema = z.looseObject({
  type: z.literal("string"),
  ...fieldLabels,
  oneOf: z.array(TitledOptionSchema),
  default: z.optional(z.string()),
});

const multiSelectFields = {
  type: z.literal("array"),
  ...fieldLabels,
  minItems: z.optional(z.int()),
  maxItems: z.optional(z.int()),
  default: z.optional(z.array(z.string())),
};

export const UntitledMultiSelectEnumSchemaSchema = z.looseObject({
  ...multiSelectFields,
  items: z.looseObject({ type: z.literal("string"), enum: z.array(z.string()) }),
});

export const TitledMultiSelectEnumSchemaSchema = z.looseObject({
  ...multiSelectFields,
  items: z.looseObject({ anyOf: z.array(TitledOptionSchema) }),
});

/** The 2025-06-18 enum field (`enum` plus `enumNames`), kept for compatibility. */
export const LegacyTitledEnumSchemaSchema = z.extend(previous.EnumSchemaSchema, { default: z.optional(z.string()) });

// Most specific shapes first: the variants are loose, so a looser one would also accept them.
export const EnumSchemaSchema = z.union([
  TitledSingleSelectEnumSchemaSchema,
  LegacyTitledEnumSchemaSchema,
  UntitledSingleSelectEnumSchemaSchema,
  TitledMultiSelectEnumSchemaSchema,
  UntitledMultiSelectEnumSchemaSchema,
]);

export const PrimitiveSchemaDefinitionSchema = z.union([
  EnumSchemaSchema,
  StringSchemaSchema,
  NumberSchemaSchema,
  previous.BooleanSchemaSchema,
]);

export const ElicitRequestedSchemaSchema = z.extend(previous.ElicitRequestedSchemaSchema, {
  ...schemaDialectField,
  properties: z.record(z.string(), PrimitiveSchemaDefinitionSchema),
});

export const ElicitRequestFormParamsSchema = z.extend(TaskAugmentedRequestParamsSchema, {
  mode: z.optional(z.literal("form")),
  message: z.string(),
  requestedSchema: ElicitRequestedSchemaSchema,
});

export const ElicitRequestURLParamsSchema = z.extend(TaskAugmentedRequestParamsSchema, {
  mode: z.literal("url"),
  message: z.string(),
  elicitationId: z.string(),
  url: z.string(),
});

export const ElicitRequestParamsSchema = z.union([ElicitRequestURLParamsSchema, ElicitRequestFormParamsSchema]);

export const ElicitResultSchema = z.extend(previous.ElicitResultSchema, {
  content: z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))),
});

export const ElicitationCompleteNotificationParamsSchema = z.extend(previous.NotificationParamsSchema, {
  elicitationId: z.string(),
});

/** The `error.data` of a -32042 error: the URL elicitations the server needs finished first. */
export const URLElicitationRequiredErrorDataSchema = z.looseObject({
  elicitations: z.array(ElicitRequestURLParamsSchema),
});

// ---- Codec ----

const taskRequests = {
  [METHODS.tasksGet]: { params: GetTaskRequestParamsSchema, result: GetTaskResultSchema },
  [METHODS.tasksResult]: { params: GetTaskPayloadRequestParamsSchema, result: GetTaskPayloadResultSchema },
  [METHODS.tasksList]: { params: ListTasksRequestParamsSchema, result: ListTasksResultSchema },
  [METHODS.tasksCancel]: { params: CancelTaskRequestParamsSchema, result: CancelTaskResultSchema },
};

const bothWayNotifications = {
  [NOTIFICATIONS.cancelled]: CancelledNotificationParamsSchema,
  [NOTIFICATIONS.tasksStatus]: TaskStatusNotificationParamsSchema,
};

export const codec = {
  ...previous.codec,
  version: "2025-11-25",
  clientRequests: {
    ...previous.codec.clientRequests,
    ...taskRequests,
    [METHODS.initialize]: { params: InitializeRequestParamsSchema, result: InitializeResultSchema },
    [METHODS.promptsList]: { params: previous.ListPromptsRequestParamsSchema, result: ListPromptsResultSchema },
    [METHODS.promptsGet]: { params: previous.GetPromptRequestParamsSchema, result: GetPromptResultSchema },
    [METHODS.resourcesList]: { params: previous.ListResourcesRequestParamsSchema, result: ListResourcesResultSchema },
    [METHODS.resourcesTemplatesList]: {
      params: previous.ListResourceTemplatesRequestParamsSchema,
      result: ListResourceTemplatesResultSchema,
    },
    [METHODS.toolsList]: { params: previous.ListToolsRequestParamsSchema, result: ListToolsResultSchema },
    [METHODS.toolsCall]: { params: CallToolRequestParamsSchema, result: orCreatedTask(CallToolResultSchema) },
  },
  serverRequests: {
    ...previous.codec.serverRequests,
    ...taskRequests,
    [METHODS.samplingCreateMessage]: {
      params: CreateMessageRequestParamsSchema,
      result: orCreatedTask(CreateMessageResultSchema),
    },
    [METHODS.elicitationCreate]: { params: ElicitRequestParamsSchema, result: orCreatedTask(ElicitResultSchema) },
  },
  clientNotifications: { ...previous.codec.clientNotifications, ...bothWayNotifications },
  serverNotifications: {
    ...previous.codec.serverNotifications,
    ...bothWayNotifications,
    [NOTIFICATIONS.elicitationComplete]: ElicitationCompleteNotificationParamsSchema,
  },
} as const satisfies RevisionCodec;
