import type { StatelessProtocolVersion } from "../../constants/index.js";
import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import type { RevisionProfile } from "../../protocol/profiles.js";
import type { JsonObject, JsonRpcId } from "../../types/types.js";
import type { RequestChannel } from "../stateless/stateless-context.js";
import type { StatelessAnswer } from "../stateless/stateless-requests.js";
import type { Implementation, ServerCapabilities } from "../../schemas/schemas.js";
import type { ChangeFeed } from "../../stores/change-feed.js";
import type { WireCodec } from "../../wire/wire-codecs.js";
import type { HandlerContext, MCPServerOptions } from "./mcp-server.types.js";

/** A feature method's handler, as either era's request path runs it. */
export type FeatureHandler = (params: never, context: HandlerContext, profile: RevisionProfile) => unknown;

/** What a request path needs from the server that owns it, in either era. */
export interface ServerHost {
  readonly info: Implementation;
  readonly options: MCPServerOptions;
  /** Where the server's changes go; sessions and listen streams hear them from here. */
  readonly changes: ChangeFeed;
  /** Fires when the server closes (listen streams end gracefully). */
  readonly closing: AbortSignal;
  /** The capabilities to declare to a client of this revision, from what is registered now. */
  capabilitiesFor(profile: RevisionProfile): ServerCapabilities;
  /** The handlers of the tools, resources, prompts and completion methods. */
  featureHandlers(): ReadonlyMap<string, FeatureHandler>;
  /**
   * The handler of one of the methods the server answers itself, behind the layers that see it (`own` is the same function for a method
   * every time).
   */
  layeredOwn(method: string, own: FeatureHandler): FeatureHandler;
  /** What its sessions answer, built by `build` for the first session and kept by this server (never shared with another). */
  sessionTables<T extends object>(build: () => T): T;
  /** Whether the session era is served (`initialize` is answered). */
  readonly servesSessions: boolean;
  /** The stateless-era revisions served (none when the server serves the session era only). */
  readonly statelessVersions: readonly StatelessProtocolVersion[];
  /** Serves one stateless-era request (see MCPServer.serveStateless). */
  serveStateless(id: JsonRpcId, method: string, params: JsonObject | undefined, channel: RequestChannel): Promise<StatelessAnswer>;
}

/** A request's params as its revision's codec has them: -32601 (`unknown`) for a method it lacks, -32602 for params its schema refuses. */
export function checkedParams(codec: Pick<WireCodec, "clientRequests">, method: string, params: unknown, unknown: string): unknown {
  const schemas = codec.clientRequests[method];
  if (!schemas) throw new JsonRpcError(JSONRPC_ERROR_CODES.METHOD_NOT_FOUND, unknown);
  const checked = schemas.params.validate(params);
  if (!checked.ok) throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, `Invalid params for ${method}: ${checked.issues}`);
  return checked.value;
}
