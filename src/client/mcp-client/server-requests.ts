// The server's requests for input: each declared capability gets its responder; an undeclared one has
// none. In the session era they arrive as server-to-client requests (an undeclared method is answered
// -32601 at once); in the stateless era as an input-required result's `inputRequests`.
import { METHODS } from "../../constants/index.js";
import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import type { JsonRpcDispatcher } from "../../jsonrpc/dispatcher/dispatcher.js";
import type { ClientCapabilities, CreateMessageRequestParams, ElicitRequestParams, Root } from "../../schemas/schemas.js";
import type { AnyProtocolVersion } from "../../constants/index.js";
import { answerElicitation } from "./elicitation.js";
import type { ElicitationOptions, SamplingOptions, ServerRequestContext } from "./mcp-client.types.js";
import { checkSamplingRequest } from "./sampling.js";

export interface ServerRequestSources {
  /** What the client declared: the responders honour exactly that. */
  readonly declared: ClientCapabilities;
  readonly listRoots: () => Promise<readonly Root[]>;
  readonly sampling: SamplingOptions | undefined;
  readonly elicitation: ElicitationOptions | undefined;
  /** Told the id of each URL elicitation the user accepted, so its completion is recognised. */
  readonly onUrlElicitationAccepted: (elicitationId: string) => void;
}

/** Answers one request for input of the server's (its params already checked by the revision's schema). */
export type InputResponder = (params: never, context: ServerRequestContext) => unknown;

/** The responders of the capabilities declared, by method. */
export function inputResponders(sources: ServerRequestSources): ReadonlyMap<string, InputResponder> {
  const { declared, sampling, elicitation } = sources;
  const responders = new Map<string, InputResponder>();
  if (declared.roots) responders.set(METHODS.rootsList, async () => ({ roots: await sources.listRoots() }));
  if (sampling) {
    responders.set(METHODS.samplingCreateMessage, (params: CreateMessageRequestParams, context: ServerRequestContext) => {
      checkSamplingRequest(params, declared);
      return sampling.createMessage(params, context);
    });
  }
  const declaredElicitation = declared.elicitation;
  if (declaredElicitation && elicitation) {
    responders.set(METHODS.elicitationCreate, (params: ElicitRequestParams, context: ServerRequestContext) =>
      answerElicitation(params, context, {
        options: elicitation,
        declared: declaredElicitation,
        onUrlAccepted: sources.onUrlElicitationAccepted,
      }),
    );
  }
  return responders;
}

/** Registers each responder as the dispatcher's handler of its method (the session era's server-to-client requests). */
export function registerServerRequests(
  dispatcher: JsonRpcDispatcher<AnyProtocolVersion>,
  responders: ReadonlyMap<string, InputResponder>,
): void {
  for (const [method, respond] of responders) answer(dispatcher, method, respond);
}

/** Registers `respond` for `method`, refusing it where the negotiated revision lacks it and checking what it answers. */
function answer(dispatcher: JsonRpcDispatcher<AnyProtocolVersion>, method: string, respond: InputResponder): void {
  dispatcher.setRequestHandler(method, async (params, context) => {
    const schemas = dispatcher.codec.serverRequests[method];
    if (!schemas) {
      throw new JsonRpcError(
        JSONRPC_ERROR_CODES.METHOD_NOT_FOUND,
        `${method} does not exist in protocol revision ${dispatcher.codec.version}`,
      );
    }
    const result = await respond(params as never, { requestId: context.id, signal: context.signal, meta: context.meta });
    const checked = schemas.result.validate(result);
    if (!checked.ok)
      throw new JsonRpcError(JSONRPC_ERROR_CODES.INTERNAL_ERROR, `This client's answer to ${method} is invalid: ${checked.issues}`);
    return checked.value;
  });
}
