// Each revision's codec as the library runs it: the wire tables compiled on first use, one method's
// schemas at a time, with no zod.
import type { AnyProtocolVersion, ProtocolVersion } from "../constants/index.js";
import { WIRE_TABLES } from "./wire-tables.generated.js";
import type { RevisionTable } from "./wire-tables.types.js";
import { type WireSchema, WireSchemaTable } from "./wire-schema.js";

/** The params and result schemas of one request method. */
export interface WireMethodSchemas {
  readonly params: WireSchema;
  readonly result: WireSchema;
}

/**
 * Everything a dispatcher needs to know about one revision's wire format. `V` is the revision it was
 * asked for; a plain `WireCodec` is a session-era one, as a session's dispatcher holds.
 */
export interface WireCodec<V extends AnyProtocolVersion = ProtocolVersion> {
  readonly version: V;
  /** Whether a peer may send JSON-RPC batches (arrays of messages). */
  readonly batching: boolean;
  /** Requests a client sends to a server, keyed by method. */
  readonly clientRequests: Readonly<Record<string, WireMethodSchemas>>;
  /** Requests a server sends to a client, keyed by method. */
  readonly serverRequests: Readonly<Record<string, WireMethodSchemas>>;
  /** Params schemas of the notifications a client sends, keyed by method. */
  readonly clientNotifications: Readonly<Record<string, WireSchema>>;
  /** Params schemas of the notifications a server sends, keyed by method. */
  readonly serverNotifications: Readonly<Record<string, WireSchema>>;
}

const table = new WireSchemaTable(WIRE_TABLES.nodes);
const codecs = new Map<AnyProtocolVersion, WireCodec<AnyProtocolVersion>>();

function requests(methods: RevisionTable["clientRequests"]): Record<string, WireMethodSchemas> {
  const schemas: Record<string, WireMethodSchemas> = {};
  for (const method of Object.keys(methods)) {
    const [params, result] = methods[method] as readonly [number, number];
    schemas[method] = { params: table.schema(params), result: table.schema(result) };
  }
  return schemas;
}

function notifications(methods: RevisionTable["clientNotifications"]): Record<string, WireSchema> {
  const schemas: Record<string, WireSchema> = {};
  for (const method of Object.keys(methods)) schemas[method] = table.schema(methods[method] as number);
  return schemas;
}

/** The codec of a revision (its schemas compile as messages first need them). */
export function codecFor<V extends AnyProtocolVersion>(version: V): WireCodec<V> {
  let codec = codecs.get(version) as WireCodec<V> | undefined;
  if (codec === undefined) {
    const revision = WIRE_TABLES.revisions[version];
    codec = {
      version,
      batching: revision.batching,
      clientRequests: requests(revision.clientRequests),
      serverRequests: requests(revision.serverRequests),
      clientNotifications: notifications(revision.clientNotifications),
      serverNotifications: notifications(revision.serverNotifications),
    };
    codecs.set(version, codec);
  }
  return codec;
}

/** `notifications/elicitation/complete` params, which a client checks itself. */
export const ElicitationCompleteNotificationParamsSchema: WireSchema = /* @__PURE__ */ table.schema(
  WIRE_TABLES.named.elicitationCompleteParams,
);
/** The `data` of a URL-elicitation-required error. */
export const URLElicitationRequiredErrorDataSchema: WireSchema = /* @__PURE__ */ table.schema(WIRE_TABLES.named.urlElicitationRequiredData);
