/** A JSON-RPC request id: the spec allows strings and integers (never null for a request). */
export type JsonRpcId = string | number;

/** A progress token a requester puts in `params._meta.progressToken`. */
export type ProgressToken = string | number;

/** An opaque pagination cursor. */
export type Cursor = string;

/** A JSON-RPC method name. */
export type MethodName = string;

/** Which end of a connection a dispatcher speaks for. */
export type Side = "client" | "server";

/** A JSON value as it travels on the wire. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A plain JSON object (params, results, `_meta`). */
export type JsonObject = { [key: string]: unknown };
