// Answering `elicitation/create`: route by mode, refuse modes not declared (-32602, as the spec
// asks), fill defaults into an accepted form (SEP-1034) and check the answer against its schema.
import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, MCPError } from "../../error-codes/mcp-error.js";
import type { ElicitRequestFormParams, ElicitRequestParams, ElicitRequestURLParams, ElicitResult } from "../../schemas/schemas.js";
import { wireLayer } from "../../schemas/wire-loader.js";
import { declaresApplyDefaults, declaresFormElicitation, declaresUrlElicitation, type ElicitationCapability } from "./capabilities.js";
import type { ElicitationOptions, ServerRequestContext } from "./mcp-client.types.js";
import { loadedValidator, loadValidator } from "./validator-loader.js";
import { withFields } from "../../types/objects.js";

export interface ElicitationDeps {
  readonly options: ElicitationOptions;
  /** The elicitation capability this client declared. */
  readonly declared: ElicitationCapability;
  readonly onUrlAccepted: (elicitationId: string) => void;
}

export function answerElicitation(
  params: ElicitRequestParams,
  context: ServerRequestContext,
  deps: ElicitationDeps,
): Promise<ElicitResult> {
  return params.mode === "url" ? answerUrl(params, context, deps) : answerForm(params, context, deps);
}

async function answerUrl(
  params: ElicitRequestParams & { mode: "url" },
  context: ServerRequestContext,
  deps: ElicitationDeps,
): Promise<ElicitResult> {
  const handler = deps.options.url;
  if (!declaresUrlElicitation(deps.declared) || !handler) throw modeNotDeclared("url");
  const result = await handler(params, context);
  if (result.action === "accept") deps.onUrlAccepted(params.elicitationId);
  return result;
}

async function answerForm(params: ElicitRequestFormParams, context: ServerRequestContext, deps: ElicitationDeps): Promise<ElicitResult> {
  const handler = deps.options.form;
  if (!declaresFormElicitation(deps.declared) || !handler) throw modeNotDeclared("form");
  // Compiled before the user is asked: a schema that cannot be used fails with -32602 at once. The validator loaded with the
  // connection (mcp-client.ts): the handler is asked at once, in the order the requests came.
  const { applyDefaults, compileJsonSchema } = loadedValidator() ?? (await loadValidator());
  const requestedSchema = compileJsonSchema(params.requestedSchema);
  const result = await handler(params, context);
  if (result.action !== "accept") return result;
  const content = declaresApplyDefaults(deps.declared) ? applyDefaults(params.requestedSchema, result.content ?? {}) : result.content;
  if (content === undefined) return result;
  const checked = requestedSchema.validate(content, "content");
  if (!checked.ok) {
    throw new JsonRpcError(
      JSONRPC_ERROR_CODES.INTERNAL_ERROR,
      `The accepted answer does not match the requested schema: ${checked.issues}`,
    );
  }
  return withFields(result, { content: content as ElicitResult["content"] });
}

function modeNotDeclared(mode: "form" | "url"): JsonRpcError {
  return new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, `This client did not declare ${mode}-mode elicitation`);
}

/** The URL elicitations a -32042 error asks the user to finish before retrying the request; empty for any other error. */
export function urlElicitationsRequired(error: unknown): readonly ElicitRequestURLParams[] {
  if (!(error instanceof MCPError) || error.wireCode !== JSONRPC_ERROR_CODES.URL_ELICITATION_REQUIRED) return [];
  const checked = wireLayer().URLElicitationRequiredErrorDataSchema.validate(error.data);
  return checked.ok ? (checked.value as { readonly elicitations: readonly ElicitRequestURLParams[] }).elicitations : [];
}
