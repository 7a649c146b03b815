import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import type { GetPromptRequestParams, GetPromptResult, Prompt, PromptArgument } from "../../schemas/schemas.js";
import type { Entry } from "./registry.js";
import type { HandlerContext, PromptConfig, PromptHandler } from "./mcp-server.types.js";

export type PromptEntry = Entry<PromptConfig, PromptHandler>;

export function promptOnTheWire(entry: PromptEntry): Prompt {
  const { arguments: args, cache: _cache, requiredScopes: _scopes, ...rest } = entry.config;
  const prompt: Prompt = { name: entry.key, ...rest };
  if (!args) return prompt;
  const described: PromptArgument[] = Object.entries(args).map(([name, { complete: _complete, ...argument }]) => ({ name, ...argument }));
  return { ...prompt, arguments: described };
}

/** Runs `prompts/get`: an unknown prompt or a missing required argument is -32602. */
export async function getPrompt(entry: PromptEntry | undefined, params: GetPromptRequestParams, context: HandlerContext): Promise<GetPromptResult> {
  if (!entry) throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, `Unknown prompt: ${params.name}`);
  const given = params.arguments ?? {};
  const missing = Object.entries(entry.config.arguments ?? {})
    .filter(([name, argument]) => argument.required && given[name] === undefined)
    .map(([name]) => name);
  if (missing.length > 0) {
    throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, `Missing required argument${missing.length > 1 ? "s" : ""} for prompt ${params.name}: ${missing.join(", ")}`);
  }
  return entry.handler(given, context);
}
