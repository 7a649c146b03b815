import { METHODS, META_KEYS, type StatelessProtocolVersion } from "../../constants/index.js";
import { JSONRPC_ERROR_CODES, MCP_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, MCPError, toWireError } from "../../error-codes/mcp-error.js";
import { PROFILES, type RevisionProfile } from "../../protocol/profiles.js";
import type { JsonRpcErrorObject } from "../../schemas/jsonrpc.js";
import { loadWire, wireLayer, wireLoaded } from "../../schemas/wire-loader.js";
import type { JsonObject, JsonRpcId } from "../../types/types.js";
import type { MCPServerOptions } from "../mcp-server/mcp-server.types.js";
import type { FeatureHandler, ServerHost } from "../mcp-server/server-host.js";
import { missingCapabilityFor } from "../core/input-capabilities.js";
import { InputRounds, inputRequiredError, missingCapabilityError, type RoundState } from "./input-rounds.js";
import { serveListen } from "./listen.js";
import { readRequestMeta, requestedVersion, type RequestMeta } from "./request-meta.js";
import { connectionTelemetry, openTelemetryInUse } from "../../telemetry/telemetry-loader.js";
import type { RequestOutcome } from "../../events/events.js";
import { requestDigest, type RequestStateSealer, type StateBinding } from "./request-state.js";
import { StatelessHandlerContext, type RequestChannel } from "./stateless-context.js";

/** How a stateless-era request ended: a result, or an error refused before any handler ran (`envelope`: HTTP 4xx) or raised by one. */
export type StatelessAnswer = { readonly result: JsonObject } | { readonly error: JsonRpcErrorObject; readonly envelope: boolean };

/** The methods that may answer `input_required` (and whose handlers may ask the client for input). */
const ROUND_METHODS: ReadonlySet<string> = new Set([METHODS.toolsCall, METHODS.promptsGet, METHODS.resourcesRead]);

/** The results that carry caching hints. */
const CACHEABLE: ReadonlySet<string> = new Set([METHODS.serverDiscover, METHODS.toolsList, METHODS.promptsList, METHODS.resourcesList, METHODS.resourcesTemplatesList, METHODS.resourcesRead]);

/** What the stateless era needs from the server beyond a session's needs. */
export interface StatelessHost extends ServerHost {
  readonly statelessVersions: readonly StatelessProtocolVersion[];
  readonly sealer: RequestStateSealer;
  principalOf(inbound: RequestChannel["inbound"]): string | undefined;
  cacheHintFor(method: string, params: JsonObject | undefined): { readonly ttlMs: number; readonly cacheScope: "public" | "private" };
}

/** A round of input: what its `requestState` is bound to, and what the client brought back from the last one. */
interface Round {
  readonly binding: () => Promise<StateBinding>;
  readonly state: RoundState | undefined;
}

function envelopeError(error: unknown): StatelessAnswer {
  return { error: toWireError(error), envelope: true };
}

/**
 * The stateless era's request path: `_meta` read and checked, params validated against the
 * revision's codec, the caller authorized, the handler run (again, for each round of input), the
 * result encoded for the revision. Nothing of a request outlives its answer: no session, no
 * dispatcher, no state in memory between rounds.
 */
export class StatelessRequests {
  readonly #own: ReadonlyMap<string, FeatureHandler>;
  #serverMeta: JsonObject | undefined;

  constructor(private readonly host: StatelessHost) {
    this.#own = new Map<string, FeatureHandler>([
      [METHODS.serverDiscover, () => this.#discover()],
      // Only the stateless path runs it, always with its own context.
      [METHODS.subscriptionsListen, ((params: JsonObject, context: StatelessHandlerContext) => serveListen(this.host, params, context)) as unknown as FeatureHandler],
    ]);
  }

  /** One request, recorded as the dispatcher records a session's: a span and metrics (when OpenTelemetry is in use), and the server's events. */
  async serve(id: JsonRpcId, method: string, params: JsonObject | undefined, channel: RequestChannel): Promise<StatelessAnswer> {
    if (channel.recorded) return this.#answer(id, method, params, channel);
    const { events, telemetry } = this.host.options;
    // Without OpenTelemetry in the process there is nothing to load or wait for.
    const chosen = telemetry === undefined ? (openTelemetryInUse() ? await connectionTelemetry() : undefined) : telemetry;
    const record = chosen?.incomingRequest({ side: "server", method, id, params, protocolVersion: requestedVersion(params) });
    if (!record && !events) return this.#answer(id, method, params, channel);
    const startedAt = events ? performance.now() : 0;
    events?.emit("request:received", { side: "server", method, id });
    const answer = await (record ? record.run(() => this.#answer(id, method, params, channel)) : this.#answer(id, method, params, channel));
    const outcome: RequestOutcome = channel.signal.aborted ? "cancelled" : "result" in answer ? "success" : "error";
    if ("error" in answer && outcome === "error") record?.end("error", { type: String(answer.error.code), code: answer.error.code, message: answer.error.message });
    else record?.end(outcome);
    events?.emit("request:completed", { side: "server", method, id, durationMs: performance.now() - startedAt, outcome });
    return answer;
  }

  async #answer(id: JsonRpcId, method: string, params: JsonObject | undefined, channel: RequestChannel): Promise<StatelessAnswer> {
    let scope: RequestMeta;
    let validated: JsonObject | undefined;
    let round: Round | undefined;
    try {
      scope = readRequestMeta(params, this.host.statelessVersions);
      if (!wireLoaded()) await loadWire();
      validated = this.#validate(scope.protocolVersion, method, params);
      if (this.host.options.authorize) await this.#authorize(method, validated, channel);
      if (ROUND_METHODS.has(method)) round = await this.#openRound(method, validated, channel);
    } catch (error) {
      return envelopeError(error);
    }
    const profile = PROFILES[scope.protocolVersion];
    try {
      const result = round ? await this.#inRounds(round, id, method, validated, scope, channel, profile) : await this.#run(id, method, validated, scope, channel, profile);
      return { result: this.#encode(method, validated, result) };
    } catch (error) {
      const wire = toWireError(error);
      return { error: wire.code === JSONRPC_ERROR_CODES.RESOURCE_NOT_FOUND ? { ...wire, code: profile.resourceNotFoundCode } : wire, envelope: false };
    }
  }

  #validate(version: StatelessProtocolVersion, method: string, params: JsonObject | undefined): JsonObject | undefined {
    const schemas = wireLayer().codecFor(version).clientRequests[method];
    if (!schemas) throw new JsonRpcError(JSONRPC_ERROR_CODES.METHOD_NOT_FOUND, `Method not found: ${method} is not part of protocol revision ${version}`);
    const checked = schemas.params.validate(params);
    if (!checked.ok) throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, `Invalid params for ${method}: ${checked.issues}`);
    return checked.value as JsonObject | undefined;
  }

  async #authorize(method: string, params: JsonObject | undefined, channel: RequestChannel): Promise<void> {
    const authorize = this.host.options.authorize as NonNullable<MCPServerOptions["authorize"]>;
    if (!(await authorize({ method, params, session: undefined, inbound: channel.inbound }))) throw new MCPError(MCP_CODES.UNAUTHORIZED, `Not authorized to call ${method}`);
  }

  #handler(method: string): FeatureHandler {
    // The codec admits only the revision's methods: each is one of the era's own or a feature method.
    return this.#own.get(method) ?? (this.host.featureHandlers().get(method) as FeatureHandler);
  }

  #run(id: JsonRpcId, method: string, params: JsonObject | undefined, scope: RequestMeta, channel: RequestChannel, profile: RevisionProfile): unknown {
    const context = new StatelessHandlerContext(id, params?.["_meta"] as JsonObject | undefined, scope, channel, undefined);
    return this.#handler(method)(params as never, context, profile);
  }

  /** Runs a handler that may ask for input: to completion, or until it asked for what the client has not answered yet. */
  async #inRounds(round: Round, id: JsonRpcId, method: string, params: JsonObject | undefined, scope: RequestMeta, channel: RequestChannel, profile: RevisionProfile): Promise<unknown> {
    const rounds = new InputRounds(InputRounds.known(round.state, params?.["inputResponses"] as Record<string, unknown> | undefined), scope.capabilities, profile);
    const context = new StatelessHandlerContext(id, params?.["_meta"] as JsonObject | undefined, scope, channel, rounds);
    let running: Promise<unknown>;
    try {
      running = Promise.resolve(this.#handler(method)(params as never, context, profile));
    } catch (error) {
      running = Promise.reject(error);
    }
    const first = await new Promise<{ value: unknown } | { error: unknown } | undefined>((resolve) => {
      running.then((value) => resolve({ value }), (error: unknown) => resolve({ error }));
      rounds.whenDecided = () => resolve(undefined);
    });
    if (first !== undefined) return "value" in first ? first.value : this.#urlRound(first.error, rounds, round, scope, profile);
    context.end(inputRequiredError());
    rounds.release();
    const requestState = await this.host.sealer.seal(rounds.state, await round.binding());
    return { resultType: "input_required", inputRequests: Object.fromEntries(rounds.missing), requestState };
  }

  /**
   * A handler written for 2025-11-25 throws -32042 (`urlElicitationRequired`) until the user went
   * through the URL flow; this era has no such code: its faithful form is a round asking for those
   * URL elicitations (never sent to a client that did not declare URL mode). Anything else is rethrown.
   */
  async #urlRound(error: unknown, rounds: InputRounds, round: Round, scope: RequestMeta, profile: RevisionProfile): Promise<unknown> {
    if (!(error instanceof JsonRpcError && error.code === JSONRPC_ERROR_CODES.URL_ELICITATION_REQUIRED)) throw error;
    const lacking = missingCapabilityFor(METHODS.elicitationCreate, { mode: "url" }, scope.capabilities, profile);
    if (lacking) throw missingCapabilityError(lacking);
    const elicitations = (error.data as { elicitations: JsonObject[] }).elicitations;
    // The revision's URL elicitations have no id: the client learns the outcome by retrying.
    const inputRequests = Object.fromEntries(elicitations.map(({ elicitationId: _id, ...params }, index) => [`url-${index}`, { method: METHODS.elicitationCreate, params }]));
    const requestState = await this.host.sealer.seal({ answers: rounds.state.answers, asked: Object.keys(inputRequests) }, await round.binding());
    return { resultType: "input_required", inputRequests, requestState };
  }

  /** The binding of the round's `requestState`, and the state the client echoed (checked: a tampered, expired or foreign one is refused). */
  async #openRound(method: string, params: JsonObject | undefined, channel: RequestChannel): Promise<Round> {
    // The digest (a SHA-256 off the thread) is made only for a state to open or to seal: most calls need neither.
    let made: Promise<StateBinding> | undefined;
    const binding = (): Promise<StateBinding> => (made ??= requestDigest(method, params).then((digest) => ({ principal: this.host.principalOf(channel.inbound), method, digest })));
    const requestState = params?.["requestState"];
    if (requestState === undefined) return { binding, state: undefined };
    const opened = await this.host.sealer.open(requestState, await binding());
    if (!opened.ok) throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, `requestState rejected (${opened.reason}): retry the request from the start, without it`);
    return { binding, state: opened.data as RoundState };
  }

  #discover(): JsonObject {
    const capabilities = this.host.capabilitiesFor(PROFILES["2026-07-28"]);
    const instructions = this.host.options.instructions;
    const result: JsonObject = { supportedVersions: [...this.host.statelessVersions], capabilities: capabilities };
    if (instructions !== undefined) result["instructions"] = instructions;
    return result;
  }

  /** A complete result as the revision has it: `resultType`, the server in `_meta`, caching hints where they belong. */
  #encode(method: string, params: JsonObject | undefined, value: unknown): JsonObject {
    const result = value as JsonObject;
    const own = result["_meta"] as JsonObject | undefined;
    // Results without a `_meta` of their own share one (it is only ever serialised).
    const meta = own === undefined ? (this.#serverMeta ??= { [META_KEYS.serverInfo]: this.host.info as unknown as JsonObject }) : { ...own, [META_KEYS.serverInfo]: this.host.info as unknown as JsonObject };
    const encoded: JsonObject = { ...result, resultType: result["resultType"] ?? "complete", _meta: meta };
    if (encoded["resultType"] === "complete" && CACHEABLE.has(method)) Object.assign(encoded, this.host.cacheHintFor(method, params));
    return encoded;
  }
}
