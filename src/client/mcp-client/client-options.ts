// What MCPClient makes of its options, and the errors it builds: here, so the class holds only its behaviour.
import { isStatelessProtocolVersion, NOTIFICATIONS, type AnyProtocolVersion } from "../../constants/index.js";
import { ClientResponses, ResponseCache } from "./response-cache.js";
import { deriveCapabilities } from "./capabilities.js";
import { inputResponders } from "./server-requests.js";
import type { EraConnectSources } from "../era/connect.js";
import type { JsonRpcDispatcher } from "../../jsonrpc/dispatcher/dispatcher.js";
import type { NotificationHandler } from "../../jsonrpc/dispatcher/dispatcher.types.js";
import { DEFAULT_MAX_INPUT_ROUNDS } from "../era/stateless-calls.js";
import type { Root } from "../../schemas/schemas.js";
import { JSONRPC_ERROR_CODES, MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { LIST_KINDS, type ListKind } from "./lists.js";
import type { EraChoice, ListCacheOptions, MCPClientEventMap, MCPClientOptions, RootsSource, SamplingOptions } from "./mcp-client.types.js";
import type { ListKind as ChangeList } from "../../stores/change-feed.js";

export const LIST_KIND_NAMES = /* @__PURE__ */ Object.keys(LIST_KINDS) as ListKind[];

export function normaliseSampling(sampling: MCPClientOptions["sampling"]): SamplingOptions | undefined {
  return typeof sampling === "function" ? { createMessage: sampling } : sampling;
}

/** Never written: the kinds of every client that keeps no list. */
const NO_KINDS: ReadonlySet<ListKind> = /* @__PURE__ */ new Set<ListKind>();

export function cachedKinds(cache: boolean | ListCacheOptions | undefined): ReadonlySet<ListKind> {
  if (!cache) return NO_KINDS;
  const wanted: ListCacheOptions = cache === true ? { tools: true, resources: true, prompts: true } : cache;
  return new Set(LIST_KIND_NAMES.filter((kind) => wanted[LIST_KINDS[kind].cachedAs]));
}

export function notInitialized(method: string): MCPError {
  return new MCPError(MCP_CODES.NOT_INITIALIZED, `${method} needs a connected client: call connect() and wait for it first`);
}

export function rootsNotDeclared(): MCPError {
  return new MCPError(
    MCP_CODES.METHOD_NOT_FOUND,
    "This client did not declare roots: pass options.roots, or call setRoots() before connect()",
  );
}

/** The era a client speaks given its options: a pinned revision decides it, and must agree with an era asked for. */
export function eraOf(era: EraChoice, pinned: AnyProtocolVersion | undefined): EraChoice {
  if (pinned === undefined) return era;
  const pinnedEra = isStatelessProtocolVersion(pinned) ? "stateless" : "session";
  if (era !== "auto" && era !== pinnedEra) {
    throw new MCPError(
      MCP_CODES.PROTOCOL_VERSION_MISMATCH,
      `protocolVersion "${pinned}" is of the ${pinnedEra} era, not the ${era} era asked for`,
    );
  }
  return pinnedEra;
}

/** The stateless era's "resource not found" (-32602 with the URI in `data.uri`) as the local `MCP.NOT_FOUND`; any other error as it is. */
export function notFoundOf(error: unknown, uri: string): unknown {
  // What a call rejects with is an MCPError: its fields are read as they are.
  const rejected = error as MCPError;
  if (rejected.wireCode !== JSONRPC_ERROR_CODES.INVALID_PARAMS || (rejected.data as { uri?: unknown } | undefined)?.uri !== uri)
    return error;
  return new MCPError(MCP_CODES.NOT_FOUND, rejected.message, { wireCode: rejected.wireCode, data: rejected.data, cause: rejected });
}

/** Whether a call was refused because its HTTP headers disagree with its body (-32020, stateless era). */
export function headerMismatch(error: unknown): boolean {
  return (error as MCPError).wireCode === JSONRPC_ERROR_CODES.HEADER_MISMATCH;
}

/** The events that tell of a list's change, by the list whose changes a listener of them wants to hear of. */
export const CHANGE_EVENTS: Readonly<Partial<Record<keyof MCPClientEventMap, ChangeList>>> = {
  toolsListChanged: "tools",
  toolsRefreshed: "tools",
  promptsListChanged: "prompts",
  promptsRefreshed: "prompts",
  resourcesListChanged: "resources",
  resourcesRefreshed: "resources",
  resourceTemplatesRefreshed: "resources",
};

/** The lists a client watches from the start: those it keeps in its cache. */
export function watchedLists(cached: ReadonlySet<ListKind>): Set<ChangeList> {
  return new Set([...cached].map((kind) => (kind === "resourceTemplates" ? "resources" : kind)));
}

/** How long a `subscriptions/listen` stream's acknowledgement is awaited when the client's options give no timeout. */
export const DEFAULT_LISTEN_ACK_TIMEOUT_MS = 60_000;
export const DEFAULT_LISTEN_RETRY_DELAY_MS = 1000;

/** The era's rounds and waits, from the client's options or their defaults. */
export function eraTimings(
  options: MCPClientOptions,
): Pick<EraConnectSources, "maxInputRounds" | "probeTimeoutMs" | "listenAckTimeoutMs" | "listenRetryDelayMs"> {
  return {
    maxInputRounds: options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
    probeTimeoutMs: options.probeTimeoutMs,
    listenAckTimeoutMs: options.timeoutMs ?? DEFAULT_LISTEN_ACK_TIMEOUT_MS,
    listenRetryDelayMs: options.listenRetryDelayMs ?? DEFAULT_LISTEN_RETRY_DELAY_MS,
  };
}

/** Server notifications that listeners hear as they are, by the event name they hear them under. */
export const FORWARDED_NOTIFICATIONS = /* @__PURE__ */ forwardedNotifications();

/** Hands each server notification that listeners hear as it is to `heard`. */
export function forwardNotifications(
  dispatcher: JsonRpcDispatcher<AnyProtocolVersion>,
  heard: (method: string, params: unknown) => unknown,
): void {
  // One handler for all of them: the context names the method.
  const hear: NotificationHandler = (params, context) => void heard(context.method, params);
  for (const method of Object.keys(FORWARDED_NOTIFICATIONS)) dispatcher.setNotificationHandler(method, hear);
}

// Built by a pure call: bundlers keep a top-level object's reads of NOTIFICATIONS in apps that never use it.
function forwardedNotifications() {
  return {
    [NOTIFICATIONS.message]: "log",
    [NOTIFICATIONS.resourcesUpdated]: "resourceUpdated",
    [NOTIFICATIONS.progress]: "progress",
    [NOTIFICATIONS.toolsListChanged]: "toolsListChanged",
    [NOTIFICATIONS.resourcesListChanged]: "resourcesListChanged",
    [NOTIFICATIONS.promptsListChanged]: "promptsListChanged",
  } as const satisfies Record<string, keyof MCPClientEventMap>;
}

/** The response cache a client's option asks for: its own by default, none for `false`, or a share of one. */
export function responsesOf(option: MCPClientOptions["responseCache"]): ClientResponses | undefined {
  if (option === false) return undefined;
  return new ClientResponses(option === undefined || option === true ? { cache: new ResponseCache(), server: "", principal: "" } : option);
}

/** What a client answers its server with: the capabilities its handlers declare in a revision, and the responders of what it declared. */
export function clientHandlers(
  options: MCPClientOptions,
  roots: () => RootsSource | undefined,
  onUrlElicitationAccepted: (elicitationId: string) => void,
): Pick<EraConnectSources, "capabilitiesFor" | "responders"> {
  const sampling = normaliseSampling(options.sampling);
  return {
    capabilitiesFor: (version) =>
      deriveCapabilities(version, {
        extra: options.capabilities,
        roots: roots() !== undefined,
        sampling,
        elicitation: options.elicitation,
        tasks: options.tasks !== false,
      }),
    responders: (declared) =>
      inputResponders({
        declared,
        listRoots: async () => {
          const source = roots();
          return typeof source === "function" ? source() : (source as readonly Root[]);
        },
        sampling,
        elicitation: options.elicitation,
        onUrlElicitationAccepted,
      }),
  };
}
