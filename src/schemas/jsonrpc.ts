// The JSON-RPC 2.0 envelopes MCP messages travel in. They are the same in every revision; what a
// revision changes lives in its codec (src/schemas/revisions/).
import * as z from "zod/mini";

import { JSONRPC_VERSION } from "../constants/index.js";

/** A request id: a string or an integer. */
export const RequestIdSchema = z.union([z.string(), z.int()]);

/** The token a requester puts in `_meta.progressToken` to ask for progress notifications. */
export const ProgressTokenSchema = z.union([z.string(), z.int()]);

/** An open `_meta` bag: the protocol reserves the key, its contents are free-form. */
export const MetaSchema = z.looseObject({});

/** The `_meta` of request params: free-form, except the progress token the protocol reads. */
export const RequestMetaSchema = z.looseObject({
  progressToken: z.optional(ProgressTokenSchema),
});

const JsonRpcVersionSchema = z.literal(JSONRPC_VERSION);
const ParamsSchema = z.optional(z.looseObject({}));

export const JsonRpcRequestSchema = z.looseObject({
  jsonrpc: JsonRpcVersionSchema,
  id: RequestIdSchema,
  method: z.string(),
  params: ParamsSchema,
});

export const JsonRpcNotificationSchema = z.looseObject({
  jsonrpc: JsonRpcVersionSchema,
  // An id would make it a request; refusing it keeps the two shapes disjoint.
  id: z.optional(z.never()),
  method: z.string(),
  params: ParamsSchema,
});

export const JsonRpcResultResponseSchema = z.looseObject({
  jsonrpc: JsonRpcVersionSchema,
  id: RequestIdSchema,
  result: z.looseObject({}),
  error: z.optional(z.never()),
});

export const JsonRpcErrorObjectSchema = z.looseObject({
  code: z.int(),
  message: z.string(),
  data: z.optional(z.unknown()),
});

export const JsonRpcErrorResponseSchema = z.looseObject({
  jsonrpc: JsonRpcVersionSchema,
  // JSON-RPC answers a request it could not read with id null; MCP 2025-11-25 omits it instead.
  id: z.optional(z.nullable(RequestIdSchema)),
  error: JsonRpcErrorObjectSchema,
  result: z.optional(z.never()),
});

export const JsonRpcResponseSchema = z.union([JsonRpcResultResponseSchema, JsonRpcErrorResponseSchema]);

export const JsonRpcMessageSchema = z.union([
  JsonRpcRequestSchema,
  JsonRpcNotificationSchema,
  JsonRpcResultResponseSchema,
  JsonRpcErrorResponseSchema,
]);

/** A batch of requests and notifications (only revision 2025-03-26 allows batches). */
export const JsonRpcBatchRequestSchema = z.array(z.union([JsonRpcRequestSchema, JsonRpcNotificationSchema])).check(z.minLength(1));

/** A batch of responses (only revision 2025-03-26 allows batches). */
export const JsonRpcBatchResponseSchema = z.array(JsonRpcResponseSchema).check(z.minLength(1));

export type RequestMeta = z.infer<typeof RequestMetaSchema>;
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;
export type JsonRpcNotification = z.infer<typeof JsonRpcNotificationSchema>;
export type JsonRpcResultResponse = z.infer<typeof JsonRpcResultResponseSchema>;
export type JsonRpcErrorObject = z.infer<typeof JsonRpcErrorObjectSchema>;
export type JsonRpcErrorResponse = z.infer<typeof JsonRpcErrorResponseSchema>;
export type JsonRpcResponse = z.infer<typeof JsonRpcResponseSchema>;
export type JsonRpcMessage = z.infer<typeof JsonRpcMessageSchema>;
export type JsonRpcBatchRequest = z.infer<typeof JsonRpcBatchRequestSchema>;
export type JsonRpcBatchResponse = z.infer<typeof JsonRpcBatchResponseSchema>;
