// The wire layer's public face: envelopes, codecs, `validate`, each revision's schemas, and the
// protocol's TypeScript types as the newest session-era revision defines them, plus the shapes the
// stateless revision 2026-07-28 adds or changes.
import type * as z from "zod/mini";

import type * as latest from "./revisions/2025-11-25.js";
import type * as stateless from "./revisions/2026-07-28.js";

export * from "./jsonrpc.js";
export type { MethodSchemas, RevisionCodec } from "./codec.js";
export { CODECS, codecFor } from "./codecs.js";
export { validate, type ValidationResult } from "./validate.js";
export { LOGGING_LEVELS } from "../constants/index.js";

export * as revision20241105 from "./revisions/2024-11-05.js";
export * as revision20250326 from "./revisions/2025-03-26.js";
export * as revision20250618 from "./revisions/2025-06-18.js";
export * as revision20251125 from "./revisions/2025-11-25.js";
export * as revision20260728 from "./revisions/2026-07-28.js";

// ---- Base shapes ----
export type RequestParams = z.infer<typeof latest.RequestParamsSchema>;
export type TaskAugmentedRequestParams = z.infer<typeof latest.TaskAugmentedRequestParamsSchema>;
export type NotificationParams = z.infer<typeof latest.NotificationParamsSchema>;
export type Result = z.infer<typeof latest.ResultSchema>;
export type EmptyResult = z.infer<typeof latest.EmptyResultSchema>;
export type PaginatedRequestParams = z.infer<typeof latest.PaginatedRequestParamsSchema>;
export type PaginatedResult = z.infer<typeof latest.PaginatedResultSchema>;
export type Role = z.infer<typeof latest.RoleSchema>;
export type Annotations = z.infer<typeof latest.AnnotationsSchema>;
export type Icon = z.infer<typeof latest.IconSchema>;

// ---- Lifecycle ----
export type Implementation = z.infer<typeof latest.ImplementationSchema>;
export type ClientCapabilities = z.infer<typeof latest.ClientCapabilitiesSchema>;
export type ServerCapabilities = z.infer<typeof latest.ServerCapabilitiesSchema>;
export type InitializeRequestParams = z.infer<typeof latest.InitializeRequestParamsSchema>;
export type InitializeResult = z.infer<typeof latest.InitializeResultSchema>;

// ---- Utilities ----
export type CancelledNotificationParams = z.infer<typeof latest.CancelledNotificationParamsSchema>;
export type ProgressNotificationParams = z.infer<typeof latest.ProgressNotificationParamsSchema>;
export type LoggingLevel = z.infer<typeof latest.LoggingLevelSchema>;
export type SetLevelRequestParams = z.infer<typeof latest.SetLevelRequestParamsSchema>;
export type LoggingMessageNotificationParams = z.infer<typeof latest.LoggingMessageNotificationParamsSchema>;
export type PromptReference = z.infer<typeof latest.PromptReferenceSchema>;
export type ResourceTemplateReference = z.infer<typeof latest.ResourceTemplateReferenceSchema>;
export type CompleteRequestParams = z.infer<typeof latest.CompleteRequestParamsSchema>;
export type CompleteResult = z.infer<typeof latest.CompleteResultSchema>;

// ---- Content ----
export type TextContent = z.infer<typeof latest.TextContentSchema>;
export type ImageContent = z.infer<typeof latest.ImageContentSchema>;
export type AudioContent = z.infer<typeof latest.AudioContentSchema>;
export type ResourceLink = z.infer<typeof latest.ResourceLinkSchema>;
export type EmbeddedResource = z.infer<typeof latest.EmbeddedResourceSchema>;
export type ContentBlock = z.infer<typeof latest.ContentBlockSchema>;

// ---- Resources ----
export type Resource = z.infer<typeof latest.ResourceSchema>;
export type ResourceTemplate = z.infer<typeof latest.ResourceTemplateSchema>;
export type ResourceContents = z.infer<typeof latest.ResourceContentsSchema>;
export type TextResourceContents = z.infer<typeof latest.TextResourceContentsSchema>;
export type BlobResourceContents = z.infer<typeof latest.BlobResourceContentsSchema>;
export type ListResourcesResult = z.infer<typeof latest.ListResourcesResultSchema>;
export type ListResourceTemplatesResult = z.infer<typeof latest.ListResourceTemplatesResultSchema>;
export type ReadResourceRequestParams = z.infer<typeof latest.ReadResourceRequestParamsSchema>;
export type ReadResourceResult = z.infer<typeof latest.ReadResourceResultSchema>;
export type SubscribeRequestParams = z.infer<typeof latest.SubscribeRequestParamsSchema>;
export type UnsubscribeRequestParams = z.infer<typeof latest.UnsubscribeRequestParamsSchema>;
export type ResourceUpdatedNotificationParams = z.infer<typeof latest.ResourceUpdatedNotificationParamsSchema>;

// ---- Prompts ----
export type Prompt = z.infer<typeof latest.PromptSchema>;
export type PromptArgument = z.infer<typeof latest.PromptArgumentSchema>;
export type PromptMessage = z.infer<typeof latest.PromptMessageSchema>;
export type ListPromptsResult = z.infer<typeof latest.ListPromptsResultSchema>;
export type GetPromptRequestParams = z.infer<typeof latest.GetPromptRequestParamsSchema>;
export type GetPromptResult = z.infer<typeof latest.GetPromptResultSchema>;

// ---- Tools ----
export type Tool = z.infer<typeof latest.ToolSchema>;
export type ToolAnnotations = z.infer<typeof latest.ToolAnnotationsSchema>;
export type ToolExecution = z.infer<typeof latest.ToolExecutionSchema>;
export type ListToolsResult = z.infer<typeof latest.ListToolsResultSchema>;
export type CallToolRequestParams = z.infer<typeof latest.CallToolRequestParamsSchema>;
export type CallToolResult = z.infer<typeof latest.CallToolResultSchema>;

// ---- Sampling ----
export type SamplingMessage = z.infer<typeof latest.SamplingMessageSchema>;
export type SamplingMessageContentBlock = z.infer<typeof latest.SamplingMessageContentBlockSchema>;
export type ToolUseContent = z.infer<typeof latest.ToolUseContentSchema>;
export type ToolResultContent = z.infer<typeof latest.ToolResultContentSchema>;
export type ToolChoice = z.infer<typeof latest.ToolChoiceSchema>;
export type ModelHint = z.infer<typeof latest.ModelHintSchema>;
export type ModelPreferences = z.infer<typeof latest.ModelPreferencesSchema>;
export type CreateMessageRequestParams = z.infer<typeof latest.CreateMessageRequestParamsSchema>;
export type CreateMessageResult = z.infer<typeof latest.CreateMessageResultSchema>;

// ---- Roots ----
export type Root = z.infer<typeof latest.RootSchema>;
export type ListRootsResult = z.infer<typeof latest.ListRootsResultSchema>;

// ---- Elicitation ----
export type ElicitRequestFormParams = z.infer<typeof latest.ElicitRequestFormParamsSchema>;
export type ElicitRequestURLParams = z.infer<typeof latest.ElicitRequestURLParamsSchema>;
export type ElicitRequestParams = z.infer<typeof latest.ElicitRequestParamsSchema>;
export type ElicitResult = z.infer<typeof latest.ElicitResultSchema>;
export type ElicitationCompleteNotificationParams = z.infer<typeof latest.ElicitationCompleteNotificationParamsSchema>;
export type URLElicitationRequiredErrorData = z.infer<typeof latest.URLElicitationRequiredErrorDataSchema>;
export type PrimitiveSchemaDefinition = z.infer<typeof latest.PrimitiveSchemaDefinitionSchema>;
export type StringSchema = z.infer<typeof latest.StringSchemaSchema>;
export type NumberSchema = z.infer<typeof latest.NumberSchemaSchema>;
export type BooleanSchema = z.infer<typeof latest.BooleanSchemaSchema>;
export type EnumSchema = z.infer<typeof latest.EnumSchemaSchema>;
export type UntitledSingleSelectEnumSchema = z.infer<typeof latest.UntitledSingleSelectEnumSchemaSchema>;
export type TitledSingleSelectEnumSchema = z.infer<typeof latest.TitledSingleSelectEnumSchemaSchema>;
export type UntitledMultiSelectEnumSchema = z.infer<typeof latest.UntitledMultiSelectEnumSchemaSchema>;
export type TitledMultiSelectEnumSchema = z.infer<typeof latest.TitledMultiSelectEnumSchemaSchema>;
export type LegacyTitledEnumSchema = z.infer<typeof latest.LegacyTitledEnumSchemaSchema>;

// ---- Tasks ----
export type TaskStatus = z.infer<typeof latest.TaskStatusSchema>;
export type TaskMetadata = z.infer<typeof latest.TaskMetadataSchema>;
export type RelatedTaskMetadata = z.infer<typeof latest.RelatedTaskMetadataSchema>;
export type Task = z.infer<typeof latest.TaskSchema>;
export type CreateTaskResult = z.infer<typeof latest.CreateTaskResultSchema>;
export type GetTaskRequestParams = z.infer<typeof latest.GetTaskRequestParamsSchema>;
export type GetTaskResult = z.infer<typeof latest.GetTaskResultSchema>;
export type GetTaskPayloadRequestParams = z.infer<typeof latest.GetTaskPayloadRequestParamsSchema>;
export type GetTaskPayloadResult = z.infer<typeof latest.GetTaskPayloadResultSchema>;
export type CancelTaskRequestParams = z.infer<typeof latest.CancelTaskRequestParamsSchema>;
export type CancelTaskResult = z.infer<typeof latest.CancelTaskResultSchema>;
export type ListTasksResult = z.infer<typeof latest.ListTasksResultSchema>;
export type TaskStatusNotificationParams = z.infer<typeof latest.TaskStatusNotificationParamsSchema>;

// ---- Revision 2026-07-28: per-request _meta, result types, input requests, discovery, subscriptions ----
// `Stateless…` where the session era has a type of the same name with another shape.
export type StatelessRequestMeta = z.infer<typeof stateless.RequestMetaSchema>;
export type StatelessNotificationMeta = z.infer<typeof stateless.NotificationMetaSchema>;
export type StatelessResultMeta = z.infer<typeof stateless.ResultMetaSchema>;
export type StatelessRequestParams = z.infer<typeof stateless.RequestParamsSchema>;
export type StatelessClientCapabilities = z.infer<typeof stateless.ClientCapabilitiesSchema>;
export type StatelessServerCapabilities = z.infer<typeof stateless.ServerCapabilitiesSchema>;
export type ResultType = z.infer<typeof stateless.ResultTypeSchema>;
export type CacheScope = z.infer<typeof stateless.CacheScopeSchema>;
export type InputRequest = z.infer<typeof stateless.InputRequestSchema>;
export type InputRequests = z.infer<typeof stateless.InputRequestsSchema>;
export type InputResponse = z.infer<typeof stateless.InputResponseSchema>;
export type InputResponses = z.infer<typeof stateless.InputResponsesSchema>;
export type InputRequiredResult = z.infer<typeof stateless.InputRequiredResultSchema>;
export type DiscoverResult = z.infer<typeof stateless.DiscoverResultSchema>;
export type SubscriptionFilter = z.infer<typeof stateless.SubscriptionFilterSchema>;
export type SubscriptionsListenRequestParams = z.infer<typeof stateless.SubscriptionsListenRequestParamsSchema>;
export type SubscriptionsListenResult = z.infer<typeof stateless.SubscriptionsListenResultSchema>;
export type SubscriptionsAcknowledgedNotificationParams = z.infer<typeof stateless.SubscriptionsAcknowledgedNotificationParamsSchema>;
export type MissingRequiredClientCapabilityErrorData = z.infer<typeof stateless.MissingRequiredClientCapabilityErrorDataSchema>;
export type UnsupportedProtocolVersionErrorData = z.infer<typeof stateless.UnsupportedProtocolVersionErrorDataSchema>;
// The tasks extension of 2026-07-28: `Extension…` where the core 2025-11-25 tasks have a type of the same name.
export type ExtensionTask = z.infer<typeof stateless.TaskSchema>;
export type DetailedTask = z.infer<typeof stateless.DetailedTaskSchema>;
export type ExtensionCreateTaskResult = z.infer<typeof stateless.CreateTaskResultSchema>;
export type ExtensionGetTaskResult = z.infer<typeof stateless.GetTaskResultSchema>;
export type UpdateTaskRequestParams = z.infer<typeof stateless.UpdateTaskRequestParamsSchema>;
export type TasksNotificationParams = z.infer<typeof stateless.TasksNotificationParamsSchema>;
