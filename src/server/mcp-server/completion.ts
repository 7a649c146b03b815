import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import type { CompleteRequestParams, CompleteResult } from "../../schemas/schemas.js";
import type { PromptEntry } from "./prompts.js";
import type { Registry } from "./registry.js";
import type { TemplateConfig } from "./resources.js";
import type { AnyPromptConfig, AnyPromptHandler, Completer, HandlerContext, TemplateReader } from "./mcp-server.types.js";

/** The spec caps one completion answer at 100 values. */
const MAX_COMPLETION_VALUES = 100;

interface CompletionSources {
  readonly prompts: Registry<AnyPromptConfig, AnyPromptHandler>;
  readonly templates: Registry<TemplateConfig, TemplateReader>;
}

/** Runs `completion/complete` for a prompt argument or a template variable; an unknown reference is -32602. */
export async function complete(
  params: CompleteRequestParams,
  sources: CompletionSources,
  handler: HandlerContext,
): Promise<CompleteResult> {
  const completer = findCompleter(params, sources);
  const values = completer ? await completer(params.argument.value, { arguments: params.context?.arguments ?? {}, handler }) : [];
  const shown = values.slice(0, MAX_COMPLETION_VALUES);
  return { completion: { values: shown, total: values.length, hasMore: values.length > shown.length } };
}

/** True when anything registered can complete (decides the `completions` capability). */
export function hasCompleters(sources: CompletionSources): boolean {
  return (
    sources.prompts
      .enabled()
      .some(({ config }) => config.complete || Object.values(config.arguments ?? {}).some((argument) => argument.complete)) ||
    sources.templates.enabled().some((template) => template.config.complete !== undefined)
  );
}

function findCompleter(params: CompleteRequestParams, sources: CompletionSources): Completer | undefined {
  const ref = params.ref;
  if (ref.type === "ref/prompt") {
    const prompt: PromptEntry | undefined = sources.prompts.get(ref.name);
    if (!prompt) throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, `Unknown prompt: ${ref.name}`);
    // A listed argument carries its completer; a schema's arguments have theirs beside the schema.
    return prompt.config.arguments?.[params.argument.name]?.complete ?? prompt.config.complete?.[params.argument.name];
  }
  const template = sources.templates.enabled().find((entry) => entry.config.uriTemplate.template === ref.uri);
  if (!template) throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, `Unknown resource template: ${ref.uri}`);
  return template.config.complete?.[params.argument.name];
}
