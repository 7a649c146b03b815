import { JSONRPC_ERROR_CODES, MCP_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, MCPError } from "../../error-codes/mcp-error.js";
import type { GetPromptRequestParams, GetPromptResult, Prompt, PromptArgument } from "../../schemas/schemas.js";
import type { Entry } from "./registry.js";
import type { AnyPromptConfig, AnyPromptHandler, HandlerContext, JsonSchemaObject } from "./mcp-server.types.js";
import { prepareObjectSchema, waitsForConverter, type PreparedSchema, type SchemaSettings } from "./schema-support.js";

export type PromptEntry = Entry<AnyPromptConfig, AnyPromptHandler>;

/** A prompt whose arguments a schema gives: the schema ready, and the arguments the wire lists for it. */
export interface PreparedPrompt {
  readonly schema: PreparedSchema;
  readonly arguments: PromptArgument[];
}

/** A server's schema settings, and its prompts as it prepared them. */
export interface PromptSchemas extends SchemaSettings {
  /** Keyed by the config object: `update()` replaces it, so a changed schema is prepared afresh. */
  readonly prompts: WeakMap<AnyPromptConfig, PreparedPrompt>;
}

/**
 * A prompt's `argsSchema`, prepared once per configuration: its properties (input side) must be strings, the only thing the wire carries.
 */
function preparePrompt(name: string, config: AnyPromptConfig, schemas: PromptSchemas): PreparedPrompt | undefined {
  let prompt = schemas.prompts.get(config);
  if (!prompt && config.argsSchema) {
    const owner = `prompt ${JSON.stringify(name)}`;
    const schema = prepareObjectSchema(config.argsSchema, "input", owner, schemas);
    // Stryker disable next-line ArrayDeclaration: a default that names no property is as good as none
    const { properties = {}, required = [] } = schema.jsonSchema as { properties?: Record<string, JsonSchemaObject>; required?: string[] };
    const args = Object.entries(properties).map(([argument, property]) => {
      // A string, or a choice among strings (an enum or a constant without `type`, as valibot and arktype write them).
      if (
        property["type"] !== "string" &&
        !((property["enum"] as unknown[] | undefined) ?? [property["const"]]).every((choice) => typeof choice === "string")
      ) {
        throw new MCPError(
          MCP_CODES.INVALID_PARAMS,
          `The input schema of ${owner} must describe strings, as prompt arguments are: ${JSON.stringify(argument)} is not one`,
        );
      }
      const described: PromptArgument = { name: argument, required: required.includes(argument) };
      for (const key of ["title", "description"] as const) if (property[key] !== undefined) described[key] = property[key] as string;
      return described;
    });
    schemas.prompts.set(config, (prompt = { schema, arguments: args }));
  }
  return prompt;
}

/**
 * The registration check: a prompt's schema is prepared now when it can be, so one that is no
 * object of strings is refused at once; a zod/mini one waits for zod's converter, as a tool's
 * does (the answer says whether it waits).
 */
export function checkPrompt(name: string, config: AnyPromptConfig, schemas: PromptSchemas): boolean {
  const waits = waitsForConverter(config.argsSchema, "input", `prompt ${JSON.stringify(name)}`);
  if (!waits) preparePrompt(name, config, schemas);
  return waits;
}

/** The arguments a prompt lists: its schema's properties, or those configured (a schema decides when both are there). */
function argumentsOf(entry: PromptEntry, schema: PreparedPrompt | undefined): PromptArgument[] | undefined {
  const args = entry.config.arguments;
  return schema?.arguments ?? (args && Object.entries(args).map(([name, { complete: _complete, ...argument }]) => ({ name, ...argument })));
}

export function promptOnTheWire(entry: PromptEntry, schemas: PromptSchemas): Prompt {
  const { arguments: _args, argsSchema: _schema, complete: _complete, cache: _cache, requiredScopes: _scopes, ...rest } = entry.config;
  const prompt: Prompt = { name: entry.key, ...rest };
  const described = argumentsOf(entry, preparePrompt(entry.key, entry.config, schemas));
  return described ? { ...prompt, arguments: described } : prompt;
}

/** Runs `prompts/get`: an unknown prompt, a missing required argument, or arguments the prompt's schema refuses are -32602. */
export async function getPrompt(
  entry: PromptEntry | undefined,
  params: GetPromptRequestParams,
  context: HandlerContext,
  schemas: PromptSchemas,
): Promise<GetPromptResult> {
  if (!entry) throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, `Unknown prompt: ${params.name}`);
  const given = params.arguments ?? {};
  const prompt = preparePrompt(entry.key, entry.config, schemas);
  const missing =
    argumentsOf(entry, prompt)
      ?.filter((argument) => argument.required && given[argument.name] === undefined)
      .map((argument) => argument.name) ?? [];
  if (missing.length > 0) {
    throw new JsonRpcError(
      JSONRPC_ERROR_CODES.INVALID_PARAMS,
      `Missing required argument${missing.length > 1 ? "s" : ""} for prompt ${params.name}: ${missing.join(", ")}`,
    );
  }
  // The handler gets the validator's output (a transform may turn a string into another type).
  const checked = await (prompt?.schema.check(given) ?? { ok: true, value: given });
  if (!checked.ok)
    throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, `Invalid arguments for prompt ${params.name}: ${checked.issues}`);
  return entry.handler(checked.value as never, context);
}
