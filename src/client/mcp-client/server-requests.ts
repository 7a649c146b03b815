// Server-to-client requests: each declared capability gets its handler; an undeclared one has none,
// so the dispatcher answers -32601 (method not found) at once.
import { METHODS } from "../../constants/index.js";
import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import type { JsonRpcDispatcher } from "../../jsonrpc/dispatcher/dispatcher.js";
import type { ClientCapabilities, CreateMessageRequestParams, ElicitRequestParams, Root } from "../../schemas/schemas.js";
import { answerElicitation } from "./elicitation.js";
import type { ElicitationOptions, SamplingOptions, ServerRequestContext } from "./mcp-client.types.js";
import { checkSamplingRequest } from "./sampling.js";

export interface ServerRequestSources {
  /** What the client declared in `initialize`: the handlers honour exactly that. */
  readonly declared: ClientCapabilities;
  readonly listRoots: () => Promise<readonly Root[]>;
  readonly sampling: SamplingOptions | undefined;
  readonly elicitation: ElicitationOptions | undefined;
  /** Told the id of each URL elicitation the user accepted, so its completion is recognised. */
  readonly onUrlElicitationAccepted: (elicitationId: string) => void;
}

export function registerServerRequests(dispatcher: JsonRpcDispatcher, sources: ServerRequestSources): void {
  const { declared, sampling, elicitation } = sources;
  if (declared.roots) {
    answer(dispatcher, METHODS.rootsList, async () => ({ roots: await sources.listRoots() }));
  }
  if (sampling) {
    answer(dispatcher, METHODS.samplingCreateMessage, (params: CreateMessageRequestParams, context) => {
      checkSamplingRequest(params, declared);
      return sampling.createMessage(params, context);
    });
  }
  const declaredElicitation = declared.elicitation;
  if (declaredElicitation && elicitation) {
    answer(dispatcher, METHODS.elicitationCreate, (params: ElicitRequestParams, context) =>
      answerElicitation(params, context, { options: elicitation, declared: declaredElicitation, onUrlAccepted: sources.onUrlElicitationAccepted }),
    );
  }
}

/** Registers `respond` for `method`, refusing it where the negotiated revision lacks it and checking what it answers. */
function answer(dispatcher: JsonRpcDispatcher, method: string, respond: (params: never, context: ServerRequestContext) => unknown): void {
  dispatcher.setRequestHandler(method, async (params, context) => {
    const schemas = dispatcher.codec.serverRequests[method];
    if (!schemas) {
      throw new JsonRpcError(JSONRPC_ERROR_CODES.METHOD_NOT_FOUND, `${method} does not exist in protocol revision ${dispatcher.codec.version}`);
    }
    const result = await respond(params as never, { requestId: context.id, signal: context.signal, meta: context.meta });
    const checked = schemas.result.validate(result);
    if (!checked.ok) throw new JsonRpcError(JSONRPC_ERROR_CODES.INTERNAL_ERROR, `This client's answer to ${method} is invalid: ${checked.issues}`);
    return checked.value;
  });
}
