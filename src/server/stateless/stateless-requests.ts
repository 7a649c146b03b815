import { METHODS, META_KEYS, type RequestMethod, type StatelessProtocolVersion } from "../../constants/index.js";
import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, toWireError } from "../../error-codes/mcp-error.js";
import { PROFILES, type RevisionProfile } from "../../protocol/profiles.js";
import type { JsonRpcErrorObject } from "../../schemas/jsonrpc.js";
import type { ClientCapabilities } from "../../schemas/schemas.js";
import { loadWire, wireLayer, wireLoaded } from "../../schemas/wire-loader.js";
import { endRequest } from "../../jsonrpc/dispatcher/request-end.js";
import { connectionTelemetry, openTelemetryInUse } from "../../telemetry/telemetry-loader.js";
import { missingCapabilityFor } from "../core/input-capabilities.js";
import type { JsonObject, JsonRpcId } from "../../types/types.js";
import { checkedParams, type FeatureHandler, type ServerHost } from "../mcp-server/server-host.js";
import { InputRounds, inputRequiredError, missingCapabilityError, type RoundState } from "./input-rounds.js";
import { serveListen } from "./listen.js";
import { requestedVersion, servedVersionOf } from "./request-meta.js";
import { requestDigest, type RequestStateSealer, type StateBinding } from "./request-state.js";
import { StatelessHandlerContext, type RequestChannel } from "./stateless-context.js";
import { withFields } from "../../types/objects.js";

/** How a stateless-era request ended: a result, or an error refused before any handler ran (`envelope`: HTTP 4xx) or raised by one. */
export type StatelessAnswer = { readonly result: JsonObject } | { readonly error: JsonRpcErrorObject; readonly envelope: boolean };

// Method names as literals (checked against RequestMethod): a Set of METHODS' members would leave their reads in bundles that never use it.
/** The methods that may answer `input_required` (and whose handlers may ask the client for input). */
const ROUND_METHODS: ReadonlySet<string> = /* @__PURE__ */ new Set([
  "tools/call",
  "prompts/get",
  "resources/read",
] satisfies RequestMethod[]);

/** The results that carry caching hints. */
const CACHEABLE: ReadonlySet<string> = /* @__PURE__ */ new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
] satisfies RequestMethod[]);

/** What the stateless era needs from the server beyond a session's needs. */
export interface StatelessHost extends ServerHost {
  readonly statelessVersions: readonly StatelessProtocolVersion[];
  readonly sealer: RequestStateSealer;
  principalOf(inbound: RequestChannel["inbound"]): string | undefined;
  cacheHintFor(method: string, params: JsonObject | undefined): { readonly ttlMs: number; readonly cacheScope: "public" | "private" };
}

/** Runs the handler with a context of its own (with a round of input, for the methods that may ask). */
type Run = (rounds?: InputRounds) => { readonly context: StatelessHandlerContext; readonly running: unknown };

/**
 * A round of input: what its `requestState` is bound to (made when first needed), and what the client brought back from the last one
 * (`sealed` until opened).
 */
interface Round {
  readonly binding: () => Promise<StateBinding>;
  readonly sealed: unknown;
  readonly state: RoundState | undefined;
}

/**
 * The stateless era's request path: `_meta` read and checked, params validated against the
 * revision's codec, the caller authorized, the handler run (again, for each round of input), the
 * result encoded for the revision. Nothing of a request outlives its answer: no session, no
 * dispatcher, no state in memory between rounds.
 */
export class StatelessRequests {
  #serverMeta: JsonObject | undefined;

  /** The era's own methods as the server's layers wrap them (one function each: the server composes once). */
  readonly #discovers: FeatureHandler = () => this.#discover();
  // Only the stateless path runs it, always with its own context.
  readonly #listens = ((params: JsonObject, context: StatelessHandlerContext) =>
    serveListen(this.#host, params, context)) as unknown as FeatureHandler;

  readonly #host: StatelessHost;

  constructor(host: StatelessHost) {
    this.#host = host;
  }

  /**
   * One request, recorded as the dispatcher records a session's: a span and metrics (when OpenTelemetry is in use), and the server's
   * events.
   */
  async serve(id: JsonRpcId, method: string, params: JsonObject | undefined, channel: RequestChannel): Promise<StatelessAnswer> {
    if (channel.recorded) return this.#answer(id, method, params, channel);
    const { events, telemetry } = this.#host.options;
    // Without OpenTelemetry in the process there is nothing to load or wait for.
    const chosen = telemetry === undefined ? (openTelemetryInUse() ? await connectionTelemetry() : undefined) : telemetry;
    const record = chosen?.incomingRequest({ side: "server", method, id, params, protocolVersion: requestedVersion(params) });
    if (!record && !events) return this.#answer(id, method, params, channel);
    const startedAt = events ? performance.now() : 0;
    events?.emit("request:received", { side: "server", method, id });
    const answer = await (record ? record.run(() => this.#answer(id, method, params, channel)) : this.#answer(id, method, params, channel));
    endRequest(
      { side: "server", method, id, record, startedAt },
      events,
      channel.signal.aborted,
      "error" in answer ? answer.error : undefined,
    );
    return answer;
  }

  async #answer(id: JsonRpcId, method: string, params: JsonObject | undefined, channel: RequestChannel): Promise<StatelessAnswer> {
    let version: StatelessProtocolVersion;
    let validated: JsonObject;
    let round: Round | undefined;
    try {
      version = servedVersionOf(params, this.#host.statelessVersions);
      if (!wireLoaded()) await loadWire();
      validated = this.#validate(version, method, params);
      if (ROUND_METHODS.has(method)) round = this.#round(method, validated, channel);
      if (round?.sealed !== undefined) round = await this.#opened(round);
    } catch (error) {
      return { error: toWireError(error), envelope: true };
    }
    const profile = PROFILES[version];
    const handler = this.#handler(method);
    const meta = validated["_meta"] as JsonObject;
    const run: Run = (rounds) => {
      const context = new StatelessHandlerContext(id, meta, version, channel, rounds);
      return { context, running: handler(validated as never, context, profile) };
    };
    try {
      const result = await (round
        ? this.#inRounds(
            round,
            validated["inputResponses"] as Record<string, unknown> | undefined,
            meta[META_KEYS.clientCapabilities] as ClientCapabilities,
            profile,
            run,
          )
        : run().running);
      return { result: this.#encode(method, validated, result) };
    } catch (error) {
      const wire = toWireError(error);
      return {
        error: wire.code === JSONRPC_ERROR_CODES.RESOURCE_NOT_FOUND ? withFields(wire, { code: profile.resourceNotFoundCode }) : wire,
        envelope: false,
      };
    }
  }

  /** The params as the revision's schema has them (with `_meta`: the version was read from it). */
  #validate(version: StatelessProtocolVersion, method: string, params: JsonObject | undefined): JsonObject {
    return checkedParams(
      wireLayer().codecFor(version),
      method,
      params,
      `Method not found: ${method} is not part of protocol revision ${version}`,
    ) as JsonObject;
  }

  /** The codec admits only the revision's methods: each is one of the era's own or a feature method. */
  #handler(method: string): FeatureHandler {
    if (method === METHODS.serverDiscover) return this.#host.layeredOwn(method, this.#discovers);
    if (method === METHODS.subscriptionsListen) return this.#host.layeredOwn(method, this.#listens);
    return this.#host.featureHandlers().get(method) as FeatureHandler;
  }

  /** Runs a handler that may ask for input: to completion, or until it asked for what the client has not answered yet. */
  async #inRounds(
    round: Round,
    responses: Record<string, unknown> | undefined,
    capabilities: ClientCapabilities,
    profile: RevisionProfile,
    run: Run,
  ): Promise<unknown> {
    const rounds = new InputRounds(InputRounds.known(round.state, responses), capabilities, profile);
    let context: StatelessHandlerContext | undefined;
    let running: Promise<unknown>;
    try {
      const started = run(rounds);
      context = started.context;
      running = Promise.resolve(started.running);
    } catch (error) {
      running = Promise.reject(error);
    }
    const first = await new Promise<{ value: unknown } | { error: unknown } | undefined>((resolve) => {
      running.then(
        (value) => resolve({ value }),
        (error: unknown) => resolve({ error }),
      );
      rounds.whenDecided = () => resolve(undefined);
    });
    if (first !== undefined) return "value" in first ? first.value : this.#urlRound(first.error, rounds, round, capabilities, profile);
    (context as StatelessHandlerContext).end(inputRequiredError());
    rounds.release();
    return this.#inputRequired(Object.fromEntries(rounds.missing), rounds.state, round);
  }

  /** An `input_required` answer: what it asks, and the state the retry brings back, sealed. */
  async #inputRequired(inputRequests: JsonObject, state: RoundState, round: Round): Promise<JsonObject> {
    return { resultType: "input_required", inputRequests, requestState: await this.#host.sealer.seal(state, await round.binding()) };
  }

  /**
   * A handler written for 2025-11-25 throws -32042 (`urlElicitationRequired`) until the user went
   * through the URL flow; this era has no such code: its faithful form is a round asking for those
   * URL elicitations (never sent to a client that did not declare URL mode). Anything else is rethrown.
   */
  async #urlRound(
    error: unknown,
    rounds: InputRounds,
    round: Round,
    capabilities: ClientCapabilities,
    profile: RevisionProfile,
  ): Promise<unknown> {
    if (!(error instanceof JsonRpcError && error.code === JSONRPC_ERROR_CODES.URL_ELICITATION_REQUIRED)) throw error;
    const lacking = missingCapabilityFor(METHODS.elicitationCreate, { mode: "url" }, capabilities, profile);
    if (lacking) throw missingCapabilityError(lacking);
    const elicitations = (error.data as { elicitations: JsonObject[] }).elicitations;
    // The revision's URL elicitations have no id: the client learns the outcome by retrying.
    const inputRequests = Object.fromEntries(
      elicitations.map(({ elicitationId: _id, ...params }, index) => [`url-${index}`, { method: METHODS.elicitationCreate, params }]),
    );
    return this.#inputRequired(inputRequests, { answers: rounds.state.answers, asked: Object.keys(inputRequests) }, round);
  }

  /**
   * The round a request opens: what its `requestState` is bound to (made when first needed), and the state the client echoed, still sealed.
   */
  #round(method: string, params: JsonObject, channel: RequestChannel): Round {
    // The digest (a SHA-256 off the thread) is made only for a state to open or to seal: most calls need neither.
    let made: Promise<StateBinding> | undefined;
    const binding = (): Promise<StateBinding> =>
      (made ??= requestDigest(method, params).then((digest) => ({ principal: this.#host.principalOf(channel.inbound), method, digest })));
    return { binding, sealed: params["requestState"], state: undefined };
  }

  /** The round with the state the client echoed, opened (a tampered, expired or foreign one is refused). */
  async #opened(round: Round): Promise<Round> {
    const opened = await this.#host.sealer.open(round.sealed, await round.binding());
    if (!opened.ok)
      throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, `requestState rejected (${opened.reason}): retry without it`);
    return { binding: round.binding, sealed: undefined, state: opened.data as RoundState };
  }

  #discover(): JsonObject {
    const capabilities = this.#host.capabilitiesFor(PROFILES["2026-07-28"]);
    const instructions = this.#host.options.instructions;
    const result: JsonObject = { supportedVersions: [...this.#host.statelessVersions], capabilities: capabilities };
    if (instructions !== undefined) result["instructions"] = instructions;
    return result;
  }

  /** A complete result as the revision has it: `resultType`, the server in `_meta`, caching hints where they belong. */
  #encode(method: string, params: JsonObject | undefined, value: unknown): JsonObject {
    const result = value as JsonObject;
    const own = result["_meta"] as JsonObject | undefined;
    // Results without a `_meta` of their own share one (it is only ever serialised).
    const meta =
      own === undefined
        ? (this.#serverMeta ??= { [META_KEYS.serverInfo]: this.#host.info as unknown as JsonObject })
        : withFields(own, { [META_KEYS.serverInfo]: this.#host.info });
    const encoded: JsonObject = withFields(result, { resultType: result["resultType"] ?? "complete", _meta: meta });
    if (encoded["resultType"] === "complete" && CACHEABLE.has(method)) Object.assign(encoded, this.#host.cacheHintFor(method, params));
    return encoded;
  }
}
