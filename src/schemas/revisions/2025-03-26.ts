// Revision 2025-03-26: 2024-11-05 plus audio content, tool annotations, the completions capability,
// a progress message and JSON-RPC batching. Only what changed is redefined here.
import * as z from "zod/mini";

import { METHODS, NOTIFICATIONS } from "../../constants/index.js";
import type { RevisionCodec } from "../codec.js";
import * as previous from "./2024-11-05.js";

export * from "./2024-11-05.js";

export const AudioContentSchema = z.looseObject({
  type: z.literal("audio"),
  data: z.string(),
  mimeType: z.string(),
  annotations: z.optional(previous.AnnotationsSchema),
});

export const ContentBlockSchema = z.discriminatedUnion("type", [
  previous.TextContentSchema,
  previous.ImageContentSchema,
  AudioContentSchema,
  previous.EmbeddedResourceSchema,
]);

export const PromptMessageSchema = z.extend(previous.PromptMessageSchema, { content: ContentBlockSchema });
export const GetPromptResultSchema = z.extend(previous.GetPromptResultSchema, {
  messages: z.array(PromptMessageSchema),
});

export const CallToolResultSchema = z.extend(previous.CallToolResultSchema, { content: z.array(ContentBlockSchema) });

export const ToolAnnotationsSchema = z.looseObject({
  title: z.optional(z.string()),
  readOnlyHint: z.optional(z.boolean()),
  destructiveHint: z.optional(z.boolean()),
  idempotentHint: z.optional(z.boolean()),
  openWorldHint: z.optional(z.boolean()),
});

export const ToolSchema = z.extend(previous.ToolSchema, { annotations: z.optional(ToolAnnotationsSchema) });
export const ListToolsResultSchema = z.extend(previous.ListToolsResultSchema, { tools: z.array(ToolSchema) });

export const SamplingContentSchema = z.discriminatedUnion("type", [
  previous.TextContentSchema,
  previous.ImageContentSchema,
  AudioContentSchema,
]);
export const SamplingMessageSchema = z.extend(previous.SamplingMessageSchema, { content: SamplingContentSchema });
export const CreateMessageRequestParamsSchema = z.extend(previous.CreateMessageRequestParamsSchema, {
  messages: z.array(SamplingMessageSchema),
});
export const CreateMessageResultSchema = z.extend(previous.CreateMessageResultSchema, {
  content: SamplingContentSchema,
});

export const ServerCapabilitiesSchema = z.extend(previous.ServerCapabilitiesSchema, {
  completions: z.optional(previous.OpenObjectSchema),
});
export const InitializeResultSchema = z.extend(previous.InitializeResultSchema, {
  capabilities: ServerCapabilitiesSchema,
});

export const ProgressNotificationParamsSchema = z.extend(previous.ProgressNotificationParamsSchema, {
  message: z.optional(z.string()),
});

export const codec = {
  ...previous.codec,
  version: "2025-03-26",
  batching: true,
  clientRequests: {
    ...previous.codec.clientRequests,
    [METHODS.initialize]: { params: previous.InitializeRequestParamsSchema, result: InitializeResultSchema },
    [METHODS.promptsGet]: { params: previous.GetPromptRequestParamsSchema, result: GetPromptResultSchema },
    [METHODS.toolsList]: { params: previous.ListToolsRequestParamsSchema, result: ListToolsResultSchema },
    [METHODS.toolsCall]: { params: previous.CallToolRequestParamsSchema, result: CallToolResultSchema },
  },
  serverRequests: {
    ...previous.codec.serverRequests,
    [METHODS.samplingCreateMessage]: { params: CreateMessageRequestParamsSchema, result: CreateMessageResultSchema },
  },
  clientNotifications: {
    ...previous.codec.clientNotifications,
    [NOTIFICATIONS.progress]: ProgressNotificationParamsSchema,
  },
  serverNotifications: {
    ...previous.codec.serverNotifications,
    [NOTIFICATIONS.progress]: ProgressNotificationParamsSchema,
  },
} as const satisfies RevisionCodec;
