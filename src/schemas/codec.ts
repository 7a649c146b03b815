// The shape every protocol revision fills in: which methods each side may call, and how their
// params, results and notification params look on the wire in that revision.
import type * as z from "zod/mini";

import type { AnyProtocolVersion } from "../constants/index.js";

/** The params and result schemas of one request method. */
export interface MethodSchemas {
  readonly params: z.ZodMiniType;
  readonly result: z.ZodMiniType;
}

/** Everything a dispatcher needs to know about one revision's wire format. */
export interface RevisionCodec {
  readonly version: AnyProtocolVersion;
  /** Whether a peer may send JSON-RPC batches (arrays of messages). */
  readonly batching: boolean;
  /** Requests a client sends to a server, keyed by method. */
  readonly clientRequests: Readonly<Record<string, MethodSchemas>>;
  /** Requests a server sends to a client, keyed by method. */
  readonly serverRequests: Readonly<Record<string, MethodSchemas>>;
  /** Params schemas of the notifications a client sends, keyed by method. */
  readonly clientNotifications: Readonly<Record<string, z.ZodMiniType>>;
  /** Params schemas of the notifications a server sends, keyed by method. */
  readonly serverNotifications: Readonly<Record<string, z.ZodMiniType>>;
}
