import { METHODS, META_KEYS, type RequestMethod, type StatelessProtocolVersion } from "../../constants/index.js";
import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, toWireError } from "../../error-codes/mcp-error.js";
import { PROFILES, type RevisionProfile } from "../../protocol/profiles.js";
import type { JsonRpcErrorObject } from "../../schemas/jsonrpc.js";
import type { ClientCapabilities } from "../../schemas/schemas.js";
import { loadWire, wireLayer } from "../../schemas/wire-loader.js";
import type { JsonObject, JsonRpcId } from "../../types/types.js";
import { authorize, checkedParams, type FeatureHandler, type ServerHost } from "../mcp-server/server-host.js";
import { InputRounds, inputRequiredError, type RoundState } from "./input-rounds.js";
import { serveListen } from "./listen.js";
import { servedVersionOf } from "./request-meta.js";
import { requestDigest, type RequestStateSealer, type StateBinding } from "./request-state.js";
import { StatelessHandlerContext, type RequestChannel } from "./stateless-context.js";

/** How a stateless-era request ended: a result, or an error refused before any handler ran (`envelope`: HTTP 4xx) or raised by one. */
export type StatelessAnswer = { readonly result: JsonObject } | { readonly error: JsonRpcErrorObject; readonly envelope: boolean };

// Method names as literals (checked against RequestMethod): a Set of METHODS' members would leave their reads in bundles that never use it.
/** The methods that may answer `input_required` (and whose handlers may ask the client for input). */
const ROUND_METHODS: ReadonlySet<string> = /* @__PURE__ */ new Set(["tools/call", "prompts/get", "resources/read"] satisfies RequestMethod[]);

/** The results that carry caching hints. */
const CACHEABLE: ReadonlySet<string> = /* @__PURE__ */ new Set(["server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"] satisfies RequestMethod[]);

/** What the stateless era needs from the server beyond a session's needs. */
export interface StatelessHost extends ServerHost {
  readonly statelessVersions: readonly StatelessProtocolVersion[];
  readonly sealer: RequestStateSealer;
  principalOf(inbound: RequestChannel["inbound"]): string | undefined;
  cacheHintFor(method: string, params: JsonObject | undefined): { readonly ttlMs: number; readonly cacheScope: "public" | "private" };
}

type Run = (rounds?: InputRounds, ended?: AbortSignal) => unknown;

/** A round of input: what its `requestState` is bound to, and what the client brought back from the last one. */
interface Round {
  readonly binding: StateBinding;
  readonly state: RoundState | undefined;
}

/**
 * The stateless era's request path: `_meta` read and checked, params validated against the
 * revision's codec, the caller authorized, the handler run (again, for each round of input), the
 * result encoded for the revision. Nothing of a request outlives its answer: no session, no
 * dispatcher, no state in memory between rounds.
 */
export class StatelessRequests {
  constructor(private readonly host: StatelessHost) {}

  async serve(id: JsonRpcId, method: string, params: JsonObject | undefined, channel: RequestChannel): Promise<StatelessAnswer> {
    let version: StatelessProtocolVersion;
    let validated: JsonObject;
    let round: Round | undefined;
    try {
      version = servedVersionOf(params, this.host.statelessVersions);
      await loadWire();
      validated = this.#validate(version, method, params);
      await this.#authorize(method, validated, channel);
      if (ROUND_METHODS.has(method)) round = await this.#openRound(method, validated, channel);
    } catch (error) {
      return { error: toWireError(error), envelope: true };
    }
    const profile = PROFILES[version];
    const handler = this.#handler(method);
    const meta = validated["_meta"] as JsonObject;
    // The handler's signal: the channel's, and the end of its round when it may ask for input.
    const run: Run = (rounds, ended) => handler(validated as never, new StatelessHandlerContext(id, meta, version, channel, rounds, ended ? AbortSignal.any([channel.signal, ended]) : channel.signal), profile);
    try {
      const result = await (round ? this.#inRounds(round, validated["inputResponses"] as Record<string, unknown> | undefined, meta[META_KEYS.clientCapabilities] as ClientCapabilities, profile, run) : run());
      return { result: this.#encode(method, validated, result) };
    } catch (error) {
      const wire = toWireError(error);
      return { error: wire.code === JSONRPC_ERROR_CODES.RESOURCE_NOT_FOUND ? { ...wire, code: profile.resourceNotFoundCode } : wire, envelope: false };
    }
  }

  /** The params as the revision's schema has them (with `_meta`: the version was read from it). */
  #validate(version: StatelessProtocolVersion, method: string, params: JsonObject | undefined): JsonObject {
    return checkedParams(wireLayer().codecFor(version), method, params, `Method not found: ${method} is not part of protocol revision ${version}`) as JsonObject;
  }

  async #authorize(method: string, params: JsonObject, channel: RequestChannel): Promise<void> {
    const hook = this.host.options.authorize;
    if (hook) await authorize(hook, { method, params, session: undefined, inbound: channel.inbound });
  }

  /** The codec admits only the revision's methods: each is one of the era's own or a feature method. */
  #handler(method: string): FeatureHandler {
    if (method === METHODS.serverDiscover) return () => this.#discover();
    // Only the stateless path runs it, always with its own context.
    if (method === METHODS.subscriptionsListen) return ((params: JsonObject, context: StatelessHandlerContext) => serveListen(this.host, params, context)) as unknown as FeatureHandler;
    return this.host.featureHandlers().get(method) as FeatureHandler;
  }

  /** Runs a handler that may ask for input: to completion, or until it asked for what the client has not answered yet. */
  async #inRounds(round: Round, responses: Record<string, unknown> | undefined, capabilities: ClientCapabilities, profile: RevisionProfile, run: Run): Promise<unknown> {
    const rounds = new InputRounds(InputRounds.known(round.state, responses), capabilities, profile);
    const ended = new AbortController();
    const running = Promise.resolve().then(() => run(rounds, ended.signal));
    const first = await Promise.race([running.then((value) => ({ value })), rounds.decided.then(() => undefined)]);
    if (first !== undefined) return first.value;
    ended.abort(inputRequiredError());
    rounds.release();
    // The abandoned run ends as it likes; nobody reads its outcome.
    running.catch(() => undefined);
    const requestState = await this.host.sealer.seal(rounds.state, round.binding);
    return { resultType: "input_required", inputRequests: Object.fromEntries(rounds.missing), requestState };
  }

  /** The binding of the round's `requestState`, and the state the client echoed (checked: a tampered, expired or foreign one is refused). */
  async #openRound(method: string, params: JsonObject | undefined, channel: RequestChannel): Promise<Round> {
    const binding: StateBinding = { principal: this.host.principalOf(channel.inbound), method, digest: await requestDigest(method, params) };
    const requestState = params?.["requestState"];
    if (requestState === undefined) return { binding, state: undefined };
    const opened = await this.host.sealer.open(requestState, binding);
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
    const meta = { ...(result["_meta"] as JsonObject | undefined), [META_KEYS.serverInfo]: this.host.info as unknown as JsonObject };
    const encoded: JsonObject = { ...result, resultType: result["resultType"] ?? "complete", _meta: meta };
    if (encoded["resultType"] === "complete" && CACHEABLE.has(method)) Object.assign(encoded, this.host.cacheHintFor(method, params));
    return encoded;
  }
}
