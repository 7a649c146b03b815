import { META_KEYS, type StatelessProtocolVersion } from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { ClientCapabilities, Implementation, InputRequests, LoggingLevel } from "../../schemas/schemas.js";
import type { JsonObject } from "../../types/types.js";
import { withFields } from "../../types/objects.js";
import type { CallOptions, InputRequired } from "../mcp-client/mcp-client.types.js";
import type { InputResponder } from "../mcp-client/server-requests.js";
import type { ClientResponses } from "../mcp-client/response-cache.js";

/** How many rounds of input one call may take when the client's options do not say. */
export const DEFAULT_MAX_INPUT_ROUNDS = 10;

/** What the stateless era's calls are made of: who this client is, and how a request goes out. */
export interface StatelessCallSources {
  readonly version: StatelessProtocolVersion;
  readonly capabilities: ClientCapabilities;
  readonly clientInfo: Implementation;
  readonly maxInputRounds: number;
  readonly responders: ReadonlyMap<string, InputResponder>;
  /** Where results the server allows to be cached are kept (none when undefined). */
  readonly responses: ClientResponses | undefined;
  /** One JSON-RPC request (a new id each time). */
  readonly send: (method: string, params: JsonObject, options: CallOptions | undefined) => Promise<unknown>;
}

/**
 * The client's calls in the stateless era (2026-07-28): every request carries the revision's
 * `_meta` (version, capabilities, client info, log level), and a result that asks for input is
 * answered — by the handlers the host registered, or by the call's own `onInputRequired` — and
 * retried under a new id with the answers and the `requestState` exactly as it came. Each call
 * keeps its own rounds: nothing of one call reaches another.
 */
export class StatelessCalls {
  /** The `_meta` every request carries; one object, rebuilt when the log level changes (the dispatcher copies before adding to it). */
  #meta: JsonObject;

  readonly #sources: StatelessCallSources;

  constructor(sources: StatelessCallSources) {
    this.#sources = sources;
    this.#meta = this.#metaWith(undefined);
  }

  /** What this client declares on every request. */
  get capabilities(): ClientCapabilities {
    return this.#sources.capabilities;
  }

  /** The level of log messages the next requests ask for (`undefined`: none). */
  set logLevel(level: LoggingLevel | undefined) {
    this.#meta = this.#metaWith(level);
  }

  /** A request's params with the era's `_meta` (the caller's own `_meta` kept, the revision's keys ours). */
  params(params: JsonObject | undefined, callerMeta?: JsonObject): JsonObject {
    // Stryker disable next-line ConditionalExpression: a copy of the era's _meta instead of the shared one serialises the same
    return withFields(params, { _meta: callerMeta === undefined ? this.#meta : withFields(callerMeta, this.#meta) });
  }

  /**
   * One call, with as many rounds of input as it takes (at most `maxInputRounds`); a result the
   * server said stays fresh is served from the cache (unless the call asks for a `fresh` one), and
   * one that took no round of input is kept there. A call with `_meta` of its own is never cached.
   */
  async call(method: string, params: JsonObject | undefined, options: CallOptions | undefined): Promise<unknown> {
    const responses = this.#sources.responses;
    const key = options?.meta === undefined ? responses?.keyOf(method, params) : undefined;
    if (key !== undefined && options?.fresh !== true) {
      const cached = (responses as ClientResponses).get(key);
      if (cached !== undefined) return cached;
    }
    const first = this.params(params, options?.meta);
    const result = await this.#sources.send(method, first, options);
    if (isInputRequired(result)) return this.#rounds(method, first, result, options);
    if (key !== undefined) (responses as ClientResponses).keep(key, result);
    return result;
  }

  /** The rounds of input a call's first answer asked for, until one answers it. */
  async #rounds(method: string, first: JsonObject, asked: InputRequired, options: CallOptions | undefined): Promise<unknown> {
    let result: unknown = asked;
    for (let round = 1; isInputRequired(result); round++) {
      if (round > this.#sources.maxInputRounds) {
        throw new MCPError(
          MCP_CODES.INPUT_ROUNDS_EXCEEDED,
          `${method} asked for input more than ${this.#sources.maxInputRounds} times (maxInputRounds)`,
          { data: result },
        );
      }
      // Only what this round asked for: the answers under the server's keys (none for a round that only
      // hands back a state), the state exactly as it came (absent when none came).
      const retry: JsonObject = withFields(first, {});
      if (result.inputRequests !== undefined) retry["inputResponses"] = await this.#answers(result.inputRequests, round, options);
      // Stryker disable next-line ConditionalExpression: a requestState set to undefined is not serialised: the retry on the wire is the
      // same
      if (result.requestState !== undefined) retry["requestState"] = result.requestState;
      options?.signal?.throwIfAborted();
      result = await this.#sources.send(method, retry, options);
    }
    return result;
  }

  #answers(requests: InputRequests, round: number, options: CallOptions | undefined): Promise<JsonObject> {
    if (options?.onInputRequired) return Promise.resolve(options.onInputRequired({ inputRequests: requests, round }));
    return this.answerEach(requests, options?.signal);
  }

  /** Each request for input, in turn (a user sees one form at a time), by the responder of its method (a round's, or a task's). */
  async answerEach(requests: InputRequests, signal: AbortSignal | undefined): Promise<JsonObject> {
    const answers: JsonObject = {};
    for (const [key, request] of Object.entries(requests)) {
      signal?.throwIfAborted();
      const respond = this.#sources.responders.get(request.method);
      if (!respond)
        throw new MCPError(
          MCP_CODES.METHOD_NOT_FOUND,
          `The server asked for ${request.method} (input "${key}"), which this client has no handler for`,
        );
      answers[key] = await respond(request.params as never, {
        requestId: key,
        signal: signal ?? new AbortController().signal,
        meta: undefined,
      });
    }
    return answers;
  }

  #metaWith(level: LoggingLevel | undefined): JsonObject {
    const meta: JsonObject = {
      [META_KEYS.protocolVersion]: this.#sources.version,
      [META_KEYS.clientCapabilities]: this.#sources.capabilities,
      [META_KEYS.clientInfo]: this.#sources.clientInfo,
    };
    // Stryker disable next-line ConditionalExpression: a logLevel set to undefined is not serialised: the request on the wire is the same
    if (level !== undefined) meta[META_KEYS.logLevel] = level;
    return meta;
  }
}

function isInputRequired(result: unknown): result is InputRequired {
  return (result as { resultType?: unknown }).resultType === "input_required";
}
