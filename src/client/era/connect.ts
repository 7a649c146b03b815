import {
  METHODS,
  META_KEYS,
  NOTIFICATIONS,
  type AnyProtocolVersion,
  type ProtocolVersion,
  type StatelessProtocolVersion,
} from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { JsonRpcDispatcher } from "../../jsonrpc/dispatcher/dispatcher.js";
import type { ClientCapabilities, Implementation } from "../../schemas/schemas.js";
import type { Transport } from "../../transport/transport/transport.types.js";
import type { HeaderParam } from "../../protocol/header-params.js";
import { initialize, type NegotiatedServer } from "../mcp-client/handshake.js";
import type { ConnectOptions, ConnectResult, EraChoice } from "../mcp-client/mcp-client.types.js";
import { registerServerRequests, type InputResponder } from "../mcp-client/server-requests.js";
import { discover, fallsBackToSession, type Discovered } from "./negotiation.js";
import { StatelessCalls } from "./stateless-calls.js";
import { SessionChanges, type ChangeSubscriptions } from "./changes.js";
import { ListenSubscriptions } from "./listen.js";
import type { CallOptions } from "../mcp-client/mcp-client.types.js";
import type { JsonObject } from "../../types/types.js";
import type { ClientResponses } from "../mcp-client/response-cache.js";

/** How long `"auto"` waits for the answer to its probe when the client's options do not say. */
const DEFAULT_PROBE_TIMEOUT_MS = 3000;

/** What a connect needs of its client. */
export interface EraConnectSources {
  readonly dispatcher: JsonRpcDispatcher<AnyProtocolVersion>;
  readonly era: EraChoice;
  /** The revision offered in `initialize`, and the stateless revision asked first. */
  readonly offered: ProtocolVersion;
  readonly stateless: StatelessProtocolVersion;
  readonly clientInfo: Implementation;
  readonly maxInputRounds: number;
  readonly probeTimeoutMs: number | undefined;
  /** Stateless era over HTTP: the `x-mcp-header` annotations of a tool as the client listed it. */
  toolHeaderParams(tool: string): readonly HeaderParam[] | undefined;
  capabilitiesFor(version: AnyProtocolVersion): ClientCapabilities;
  responders(declared: ClientCapabilities): ReadonlyMap<string, InputResponder>;
  /** A request of the connected client (the session era's subscriptions are requests). */
  readonly request: (method: string, params: JsonObject, options: CallOptions | undefined) => Promise<unknown>;
  /** Stateless era: a change notification the listen stream may have missed, delivered as if it came. */
  deliver(method: string, params: JsonObject): void;
  report(error: MCPError): void;
  /** How long a listen stream's acknowledgement is awaited, and the first wait before a broken one is re-opened. */
  readonly listenAckTimeoutMs: number;
  readonly listenRetryDelayMs: number;
  /** Where the stateless era keeps the results its server allows to be cached (made when first asked for). */
  responses(): ClientResponses | undefined;
}

/** A connection's era: what the server said of itself, what this client declared, and (stateless era) how its calls are made. */
export interface EraConnection {
  readonly chosen: ConnectResult;
  readonly server: NegotiatedServer;
  readonly declared: ClientCapabilities;
  readonly calls: StatelessCalls | undefined;
  readonly changes: ChangeSubscriptions;
}

/**
 * Finds the era and revision to speak on a connected dispatcher. `"auto"`, on a transport that
 * carries the stateless era, probes with `server/discover` and keeps that era when the server
 * answers it; otherwise (and in the session era) the handshake runs: `initialize`, the version
 * check, then `notifications/initialized`.
 */
export async function connectEra(sources: EraConnectSources, transport: Transport, options: ConnectOptions): Promise<EraConnection> {
  if (sources.era === "stateless" && !transport.carriesStatelessEra) {
    throw new MCPError(
      MCP_CODES.PROTOCOL_VERSION_MISMATCH,
      "This client was asked to speak only the stateless era, but this transport does not carry the stateless era (2026-07-28)",
    );
  }
  if (sources.era !== "session" && transport.carriesStatelessEra) {
    const probed = await probe(sources, options, sources.era === "auto");
    if (typeof probed === "object") return statelessConnection(sources, transport, probed);
    // A probe given up for time may have gone to a slow server of the stateless era, which refuses
    // initialize: then it is asked again, for as long as the connect allows.
    if (probed === TIMED_OUT)
      return handshake(sources, transport, options).catch((error: unknown) => probeAgain(sources, transport, options, error));
  }
  return handshake(sources, transport, options);
}

async function probeAgain(
  sources: EraConnectSources,
  transport: Transport,
  options: ConnectOptions,
  refused: unknown,
): Promise<EraConnection> {
  if (!fallsBackToSession(refused)) throw refused;
  const probed = await probe(sources, options, false).catch(() => undefined);
  if (probed === undefined) throw refused;
  return statelessConnection(sources, transport, probed as Probed);
}

/** What a probe found: the server's discover result, with the calls of the revision it answered in (they made the probe's own `_meta`). */
interface Probed {
  readonly discovered: Discovered;
  readonly calls: StatelessCalls;
}

/** A probe that got no answer within `probeTimeoutMs`. */
const TIMED_OUT = "timed out";

/**
 * `server/discover`: what the server said; or, when `fallBack` (`"auto"`) and the answer means the
 * session era, undefined (`TIMED_OUT` when there was no answer in time).
 */
async function probe(
  sources: EraConnectSources,
  options: ConnectOptions,
  fallBack: boolean,
): Promise<Probed | typeof TIMED_OUT | undefined> {
  const { dispatcher } = sources;
  // A server of the session era may never answer a request before initialize: "auto" waits for it only so long.
  const probeOptions: ConnectOptions = fallBack
    ? { ...options, timeoutMs: Math.min(options.timeoutMs ?? Infinity, sources.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS) }
    : options;
  let calls: StatelessCalls | undefined;
  const send = (version: StatelessProtocolVersion) => {
    dispatcher.setProtocolVersion(version);
    calls = statelessCalls(sources, version);
    return dispatcher.request(METHODS.serverDiscover, calls.params(undefined), probeOptions);
  };
  try {
    const discovered = await discover(send, sources.stateless);
    // The last discover sent is the one answered: its calls are in the revision discovered.
    return { discovered, calls: calls as StatelessCalls };
  } catch (error) {
    if (!fallBack || !fallsBackToSession(error)) throw error;
    return (error as MCPError).code === MCP_CODES.TIMEOUT ? TIMED_OUT : undefined;
  }
}

function statelessConnection(sources: EraConnectSources, transport: Transport, { discovered, calls }: Probed): EraConnection {
  transport.setToolHeaderParams?.((tool) => sources.toolHeaderParams(tool));
  const { version, result } = discovered;
  const meta: Record<string, unknown> | undefined = result["_meta"];
  // The spec puts the server's info in the result's _meta; some servers put it in the body, as initialize does.
  const serverInfo = (meta?.[META_KEYS.serverInfo] ?? (result as { serverInfo?: unknown }).serverInfo) as Implementation | undefined;
  return {
    chosen: { era: "stateless", protocolVersion: version },
    server: { ...result, serverInfo, protocolVersion: version } as unknown as NegotiatedServer,
    declared: calls.capabilities,
    calls,
    changes: listen(sources, calls),
  };
}

/** The stateless era's change notifications, on `subscriptions/listen` streams of this dispatcher. */
function listen(sources: EraConnectSources, calls: StatelessCalls): ListenSubscriptions {
  const { dispatcher } = sources;
  const subscriptions = new ListenSubscriptions({
    send: (params, options) => dispatcher.request(METHODS.subscriptionsListen, calls.params(params), options),
    deliver: (method, params) => sources.deliver(method, params),
    report: (error) => sources.report(error),
    ackTimeoutMs: sources.listenAckTimeoutMs,
    retryDelayMs: sources.listenRetryDelayMs,
  });
  dispatcher.setNotificationHandler(NOTIFICATIONS.subscriptionsAcknowledged, (params) => subscriptions.acknowledged(params));
  return subscriptions;
}

async function handshake(sources: EraConnectSources, transport: Transport, options: ConnectOptions): Promise<EraConnection> {
  const { dispatcher, offered } = sources;
  const declared = sources.capabilitiesFor(offered);
  registerServerRequests(dispatcher, sources.responders(declared));
  dispatcher.setProtocolVersion(offered);
  const server = await initialize(
    dispatcher,
    { protocolVersion: offered, capabilities: declared, clientInfo: sources.clientInfo },
    options,
  );
  dispatcher.setProtocolVersion(server.protocolVersion);
  transport.setProtocolVersion?.(server.protocolVersion);
  await dispatcher.notify(NOTIFICATIONS.initialized);
  // The client's request itself: the changes hold nothing else of the connect.
  const changes = new SessionChanges(sources.request);
  return { chosen: { era: "session", protocolVersion: server.protocolVersion }, server, declared, calls: undefined, changes };
}

function statelessCalls(sources: EraConnectSources, version: StatelessProtocolVersion): StatelessCalls {
  const declared = sources.capabilitiesFor(version);
  return new StatelessCalls({
    version,
    capabilities: declared,
    clientInfo: sources.clientInfo,
    maxInputRounds: sources.maxInputRounds,
    responders: sources.responders(declared),
    responses: sources.responses(),
    send: (method, params, options) => sources.dispatcher.request(method, params, options),
  });
}
