// Revision 2025-06-18: 2025-03-26 without batching, plus display titles, `_meta` on the data types,
// resource links, structured tool output, completion context and form elicitation.
import * as z from "zod/mini";

import { METHODS } from "../../constants/index.js";
import type { RevisionCodec } from "../codec.js";
import { MetaSchema } from "../jsonrpc.js";
import * as previous from "./2025-03-26.js";

export * from "./2025-03-26.js";

const metaField = { _meta: z.optional(MetaSchema) };
const titleField = { title: z.optional(z.string()) };

export const AnnotationsSchema = z.extend(previous.AnnotationsSchema, { lastModified: z.optional(z.string()) });
const annotationsField = { annotations: z.optional(AnnotationsSchema) };

// ---- Lifecycle ----

export const ImplementationSchema = z.extend(previous.ImplementationSchema, titleField);

export const ClientCapabilitiesSchema = z.extend(previous.ClientCapabilitiesSchema, {
  elicitation: z.optional(previous.OpenObjectSchema),
});

export const InitializeRequestParamsSchema = z.extend(previous.InitializeRequestParamsSchema, {
  capabilities: ClientCapabilitiesSchema,
  clientInfo: ImplementationSchema,
});
export const InitializeResultSchema = z.extend(previous.InitializeResultSchema, { serverInfo: ImplementationSchema });

// ---- Content ----

export const TextContentSchema = z.extend(previous.TextContentSchema, { ...annotationsField, ...metaField });
export const ImageContentSchema = z.extend(previous.ImageContentSchema, { ...annotationsField, ...metaField });
export const AudioContentSchema = z.extend(previous.AudioContentSchema, { ...annotationsField, ...metaField });

export const ResourceContentsSchema = z.extend(previous.ResourceContentsSchema, metaField);
export const TextResourceContentsSchema = z.extend(previous.TextResourceContentsSchema, metaField);
export const BlobResourceContentsSchema = z.extend(previous.BlobResourceContentsSchema, metaField);
const ResourceContentsUnionSchema = z.union([TextResourceContentsSchema, BlobResourceContentsSchema]);

export const EmbeddedResourceSchema = z.extend(previous.EmbeddedResourceSchema, {
  resource: ResourceContentsUnionSchema,
  ...annotationsField,
  ...metaField,
});

export const ResourceSchema = z.extend(previous.ResourceSchema, { ...titleField, ...annotationsField, ...metaField });
export const ResourceLinkSchema = z.extend(ResourceSchema, { type: z.literal("resource_link") });

export const ContentBlockSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkSchema,
  EmbeddedResourceSchema,
]);

// ---- Resources ----

export const ResourceTemplateSchema = z.extend(previous.ResourceTemplateSchema, {
  ...titleField,
  ...annotationsField,
  ...metaField,
});
export const ListResourcesResultSchema = z.extend(previous.ListResourcesResultSchema, {
  resources: z.array(ResourceSchema),
});
export const ListResourceTemplatesResultSchema = z.extend(previous.ListResourceTemplatesResultSchema, {
  resourceTemplates: z.array(ResourceTemplateSchema),
});
export const ReadResourceResultSchema = z.extend(previous.ReadResourceResultSchema, {
  contents: z.array(ResourceContentsUnionSchema),
});

// ---- Prompts ----

export const PromptArgumentSchema = z.extend(previous.PromptArgumentSchema, titleField);
export const PromptSchema = z.extend(previous.PromptSchema, {
  ...titleField,
  arguments: z.optional(z.array(PromptArgumentSchema)),
  ...metaField,
});
export const ListPromptsResultSchema = z.extend(previous.ListPromptsResultSchema, { prompts: z.array(PromptSchema) });
export const PromptMessageSchema = z.extend(previous.PromptMessageSchema, { content: ContentBlockSchema });
export const GetPromptResultSchema = z.extend(previous.GetPromptResultSchema, {
  messages: z.array(PromptMessageSchema),
});

// ---- Tools ----

export const ToolOutputSchemaSchema = previous.ToolInputSchemaSchema;

export const ToolSchema = z.extend(previous.ToolSchema, {
  ...titleField,
  outputSchema: z.optional(ToolOutputSchemaSchema),
  ...metaField,
});
export const ListToolsResultSchema = z.extend(previous.ListToolsResultSchema, { tools: z.array(ToolSchema) });

export const CallToolResultSchema = z.extend(previous.CallToolResultSchema, {
  content: z.array(ContentBlockSchema),
  structuredContent: z.optional(z.record(z.string(), z.unknown())),
});

// ---- Completion ----

export const ResourceTemplateReferenceSchema = previous.ResourceReferenceSchema;
export const PromptReferenceSchema = z.extend(previous.PromptReferenceSchema, titleField);

export const CompleteRequestParamsSchema = z.extend(previous.CompleteRequestParamsSchema, {
  ref: z.discriminatedUnion("type", [PromptReferenceSchema, ResourceTemplateReferenceSchema]),
  context: z.optional(z.looseObject({ arguments: z.optional(z.record(z.string(), z.string())) })),
});

// ---- Sampling ----

export const SamplingContentSchema = z.discriminatedUnion("type", [TextContentSchema, ImageContentSchema, AudioContentSchema]);
export const SamplingMessageSchema = z.extend(previous.SamplingMessageSchema, { content: SamplingContentSchema });
export const CreateMessageRequestParamsSchema = z.extend(previous.CreateMessageRequestParamsSchema, {
  messages: z.array(SamplingMessageSchema),
});
export const CreateMessageResultSchema = z.extend(previous.CreateMessageResultSchema, {
  content: SamplingContentSchema,
});

// ---- Roots ----

export const RootSchema = z.extend(previous.RootSchema, metaField);
export const ListRootsResultSchema = z.extend(previous.ListRootsResultSchema, { roots: z.array(RootSchema) });

// ---- Elicitation ----

const fieldLabels = { title: z.optional(z.string()), description: z.optional(z.string()) };

export const StringSchemaSchema = z.looseObject({
  type: z.literal("string"),
  ...fieldLabels,
  minLength: z.optional(z.int()),
  maxLength: z.optional(z.int()),
  format: z.optional(z.enum(["email", "uri", "date", "date-time"])),
});

export const NumberSchemaSchema = z.looseObject({
  type: z.enum(["number", "integer"]),
  ...fieldLabels,
  minimum: z.optional(z.number()),
  maximum: z.optional(z.number()),
});

export const BooleanSchemaSchema = z.looseObject({
  type: z.literal("boolean"),
  ...fieldLabels,
  default: z.optional(z.boolean()),
});

export const EnumSchemaSchema = z.looseObject({
  type: z.literal("string"),
  ...fieldLabels,
  enum: z.array(z.string()),
  enumNames: z.optional(z.array(z.string())),
});

// Enum before string: both declare type "string", and the enum shape is the stricter one.
export const PrimitiveSchemaDefinitionSchema = z.union([EnumSchemaSchema, StringSchemaSchema, NumberSchemaSchema, BooleanSchemaSchema]);

export const ElicitRequestedSchemaSchema = z.looseObject({
  type: z.literal("object"),
  properties: z.record(z.string(), PrimitiveSchemaDefinitionSchema),
  required: z.optional(z.array(z.string())),
});

export const ElicitRequestParamsSchema = z.extend(previous.RequestParamsSchema, {
  message: z.string(),
  requestedSchema: ElicitRequestedSchemaSchema,
});

export const ElicitResultSchema = z.extend(previous.ResultSchema, {
  action: z.enum(["accept", "decline", "cancel"]),
  content: z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))),
});

// ---- Codec ----

export const codec = {
  ...previous.codec,
  version: "2025-06-18",
  batching: false,
  clientRequests: {
    ...previous.codec.clientRequests,
    [METHODS.initialize]: { params: InitializeRequestParamsSchema, result: InitializeResultSchema },
    [METHODS.completionComplete]: { params: CompleteRequestParamsSchema, result: previous.CompleteResultSchema },
    [METHODS.promptsList]: { params: previous.ListPromptsRequestParamsSchema, result: ListPromptsResultSchema },
    [METHODS.promptsGet]: { params: previous.GetPromptRequestParamsSchema, result: GetPromptResultSchema },
    [METHODS.resourcesList]: { params: previous.ListResourcesRequestParamsSchema, result: ListResourcesResultSchema },
    [METHODS.resourcesTemplatesList]: {
      params: previous.ListResourceTemplatesRequestParamsSchema,
      result: ListResourceTemplatesResultSchema,
    },
    [METHODS.resourcesRead]: { params: previous.ReadResourceRequestParamsSchema, result: ReadResourceResultSchema },
    [METHODS.toolsList]: { params: previous.ListToolsRequestParamsSchema, result: ListToolsResultSchema },
    [METHODS.toolsCall]: { params: previous.CallToolRequestParamsSchema, result: CallToolResultSchema },
  },
  serverRequests: {
    ...previous.codec.serverRequests,
    [METHODS.samplingCreateMessage]: { params: CreateMessageRequestParamsSchema, result: CreateMessageResultSchema },
    [METHODS.rootsList]: { params: previous.ListRootsRequestParamsSchema, result: ListRootsResultSchema },
    [METHODS.elicitationCreate]: { params: ElicitRequestParamsSchema, result: ElicitResultSchema },
  },
} as const satisfies RevisionCodec;
