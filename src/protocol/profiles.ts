import { ALL_PROTOCOL_VERSIONS, type AnyProtocolVersion, type ProtocolVersion, type StatelessProtocolVersion } from "../constants/index.js";
import { JSONRPC_ERROR_CODES } from "../error-codes/error-codes.js";
import { revisionHas } from "./revision-features.js";

/** How a revision carries its version, client and capabilities: an `initialize` handshake per session, or `_meta` on every request. */
export type Era = "session" | "stateless";

/**
 * Everything a revision decides beyond its message schemas (those are its codec): one row per
 * revision, so the server, the request path and the transports read a rule instead of comparing
 * versions or eras.
 */
export interface RevisionProfile {
  readonly version: AnyProtocolVersion;
  readonly era: Era;
  /** Whether a peer may send JSON-RPC batches (2025-03-26 only). */
  readonly batching: boolean;
  /**
   * Tool arguments that fail the input schema: a -32602 protocol error, or (2025-11-25 on, SEP-1303) an `isError` result the model can
   * correct.
   */
  readonly invalidToolArguments: "protocol-error" | "tool-error";
  /** Whether `completions` is a capability to declare (2025-03-26 on). */
  readonly declaresCompletions: boolean;
  /** Whether URL-mode elicitation exists. */
  readonly urlElicitation: boolean;
  /** Whether sampling requests may offer the model tools (`tools`, `toolChoice`). */
  readonly samplingTools: boolean;
  /** Whether an SSE stream starts with a priming event (SEP-1699, 2025-11-25): older clients choke on its empty data. */
  readonly primingEvent: boolean;
  /** The wire code of "resource not found": -32002 up to 2025-11-25, -32602 (with `data.uri`) after. */
  readonly resourceNotFoundCode: number;
  /**
   * How a client asks for tasks: not at all (before 2025-11-25), through the core protocol (2025-11-25:
   * a `task` param, `tasks/*` methods, capabilities), or through the `io.modelcontextprotocol/tasks`
   * extension the request declares (2026-07-28: the server decides).
   */
  readonly tasks: "none" | "core" | "extension";
}

type SessionProfile = RevisionProfile & { readonly version: ProtocolVersion; readonly era: "session" };
type StatelessProfile = RevisionProfile & { readonly version: StatelessProtocolVersion; readonly era: "stateless" };

/** A session-era profile: what the revision has is read from the feature table the downgrade uses (one place per fact). */
function sessionProfile(
  version: ProtocolVersion,
  rules: Pick<RevisionProfile, "batching" | "invalidToolArguments" | "primingEvent">,
): SessionProfile {
  return {
    version,
    era: "session",
    ...rules,
    declaresCompletions: revisionHas(version, "completions"),
    urlElicitation: revisionHas(version, "urlElicitation"),
    samplingTools: revisionHas(version, "samplingTools"),
    resourceNotFoundCode: JSONRPC_ERROR_CODES.RESOURCE_NOT_FOUND,
    tasks: revisionHas(version, "tasks") ? "core" : "none",
  };
}

type Profiles = Readonly<Record<ProtocolVersion, SessionProfile> & Record<StatelessProtocolVersion, StatelessProfile>>;

export const PROFILES: Profiles = /* @__PURE__ */ profiles();

// Built by a pure call: the table's calls would stay in bundles that never read it.
function profiles(): Profiles {
  return {
    "2024-11-05": sessionProfile("2024-11-05", { batching: false, invalidToolArguments: "protocol-error", primingEvent: false }),
    // `batching` as each revision's codec has it (a test holds the two together).
    "2025-03-26": sessionProfile("2025-03-26", { batching: true, invalidToolArguments: "protocol-error", primingEvent: false }),
    "2025-06-18": sessionProfile("2025-06-18", { batching: false, invalidToolArguments: "protocol-error", primingEvent: false }),
    // Stryker disable next-line StringLiteral: only "protocol-error" is asked for; any other value makes bad arguments a tool error
    "2025-11-25": sessionProfile("2025-11-25", { batching: false, invalidToolArguments: "tool-error", primingEvent: true }),
    "2026-07-28": {
      version: "2026-07-28",
      era: "stateless",
      batching: false,
      invalidToolArguments: "tool-error",
      declaresCompletions: true,
      urlElicitation: true,
      samplingTools: true,
      primingEvent: false,
      resourceNotFoundCode: JSONRPC_ERROR_CODES.INVALID_PARAMS,
      tasks: "extension",
    },
  };
}

/** The profile of a revision this library speaks. */
export function profileOf(version: AnyProtocolVersion): RevisionProfile {
  return PROFILES[version];
}

/** The revisions of the given eras, oldest first. */
export function versionsOf(eras: readonly Era[]): AnyProtocolVersion[] {
  return ALL_PROTOCOL_VERSIONS.filter((version) => eras.includes(PROFILES[version].era));
}
