import { JSONRPC_ERROR_CODES, MCP_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import type { RevisionProfile } from "../../protocol/profiles.js";
import type { ClientCapabilities } from "../../schemas/schemas.js";
import type { JsonObject } from "../../types/types.js";
import { checkInputAnswer } from "../core/input-answers.js";
import { missingCapabilityFor, type MissingCapability } from "../core/input-capabilities.js";

/** One request for input as it goes into `inputRequests`. */
export interface InputRequest {
  readonly method: string;
  readonly params: JsonObject;
}

/** What a round keeps in its sealed `requestState`: the answers the handler used, and the keys the round asked for. */
export interface RoundState {
  readonly answers: Readonly<Record<string, unknown>>;
  readonly asked: readonly string[];
}

const NOTHING_KNOWN: ReadonlyMap<string, unknown> = /* @__PURE__ */ new Map();

/** The refusal of a request for input the client cannot answer: -32021 naming what it lacks. */
export function missingCapabilityError(lacking: MissingCapability): JsonRpcError {
  return new JsonRpcError(
    JSONRPC_ERROR_CODES.MISSING_REQUIRED_CLIENT_CAPABILITY,
    `The request did not declare the ${lacking.name} client capability`,
    { requiredCapabilities: lacking.required },
  );
}

/** What the handler's pending requests for input are rejected with once the round's answer is decided. */
export function inputRequiredError(): MCPError {
  return new MCPError(MCP_CODES.REQUEST_CANCELLED, "Answered input_required: the client retries with the answers");
}

/**
 * The requests for input of one run of a handler in the stateless era. An input the client already
 * answered (in this request's `inputResponses`, or in an earlier round, carried in `requestState`)
 * resolves at once; one it did not is collected, and once the handler has asked for everything it
 * asks for in the same turn, the `whenDecided` callback runs: the request is answered `input_required` with all of
 * them, and the handler's run is abandoned (its pending inputs reject, its signal fires).
 */
export class InputRounds {
  readonly #known: ReadonlyMap<string, unknown>;
  readonly #used = new Map<string, unknown>();
  readonly #missing = new Map<string, InputRequest>();
  readonly #waiting: ((error: MCPError) => void)[] = [];
  #asked = 0;
  /** Told once the round needs the client: a macrotask after the first unanswered input, so inputs asked together land in one round. */
  whenDecided!: () => void;

  readonly #capabilities: ClientCapabilities;
  readonly #profile: RevisionProfile;

  constructor(known: ReadonlyMap<string, unknown>, capabilities: ClientCapabilities, profile: RevisionProfile) {
    this.#capabilities = capabilities;
    this.#profile = profile;
    this.#known = known;
  }

  /**
   * The known answers: those of earlier rounds, and this request's `inputResponses` to what the last round asked (extra keys are ignored).
   */
  static known(state: RoundState | undefined, responses: Readonly<Record<string, unknown>> | undefined): ReadonlyMap<string, unknown> {
    // Most calls are first rounds: nothing known, nothing to build.
    if (!state && !responses) return NOTHING_KNOWN;
    const known = new Map<string, unknown>(state ? Object.entries(state.answers) : []);
    const asked = state ? new Set(state.asked) : undefined;
    for (const [key, answer] of Object.entries(responses ?? {})) if (!asked || asked.has(key)) known.set(key, answer);
    return known;
  }

  get missing(): ReadonlyMap<string, InputRequest> {
    return this.#missing;
  }

  /** Answers this run used, and what the round asks: what the next round's `requestState` carries. */
  get state(): RoundState {
    return { answers: Object.fromEntries(this.#used), asked: [...this.#missing.keys()] };
  }

  async ask(method: string, params: JsonObject | undefined, key: string | undefined): Promise<unknown> {
    const name = key ?? `${method.split("/")[0] as string}-${this.#asked}`;
    this.#asked++;
    const lacking = missingCapabilityFor(method, params, this.#capabilities, this.#profile);
    if (lacking) throw missingCapabilityError(lacking);
    if (this.#known.has(name)) {
      let answer: unknown;
      try {
        answer = checkInputAnswer(method, params, this.#known.get(name));
      } catch (error) {
        throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, `inputResponses["${name}"]: ${describeThrown(error)}`);
      }
      this.#used.set(name, answer);
      return answer;
    }
    if (this.#missing.size === 0) setTimeout(() => this.whenDecided(), 0);
    this.#missing.set(name, { method, params: params ?? {} });
    return new Promise((_resolve, reject) => this.#waiting.push(reject));
  }

  /** Ends the abandoned run: its pending inputs reject, so its `finally` blocks run. */
  release(): void {
    const error = inputRequiredError();
    for (const reject of this.#waiting.splice(0)) reject(error);
  }
}
