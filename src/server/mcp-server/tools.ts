import { JSONRPC_ERROR_CODES, MCP_CODES } from "../../error-codes/error-codes.js";
import { headerParamsOf, type HeaderParam } from "../../protocol/mcp-headers.js";
import { JsonRpcError, MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import type { CallToolRequestParams, CallToolResult, Tool } from "../../schemas/schemas.js";
import type { Entry } from "./registry.js";
import type { RevisionProfile } from "../../protocol/profiles.js";
import type { ArgumentsSchema, HandlerContext, ToolConfig } from "./mcp-server.types.js";
import { prepareObjectSchema, waitsForConverter, type PreparedSchema, type SchemaSettings } from "./schema-support.js";
import type { ValidationResult } from "../../wire/wire-schema.js";
import type { JsonObject } from "../../types/types.js";
import type { TaskCall, TaskSupport } from "../core/task-support.js";
import { withFields } from "../../types/objects.js";

export type AnyToolConfig = ToolConfig<ArgumentsSchema | undefined, ArgumentsSchema | undefined>;
export type AnyToolHandler = (args: never, context: HandlerContext) => CallToolResult | Promise<CallToolResult>;
export type ToolEntry = Entry<AnyToolConfig, AnyToolHandler>;

const EMPTY_INPUT: PreparedSchema = { jsonSchema: { type: "object", properties: {} }, check: (value) => ({ ok: true, value }) };

export interface PreparedTool {
  readonly input: PreparedSchema;
  readonly output: PreparedSchema | undefined;
  readonly wire: Tool;
  /** As the tasks extension's revision lists it: without `execution` (there the server decides, per call). */
  readonly extensionWire: Tool;
  /** Stateless era over HTTP: the arguments its clients mirror into `Mcp-Param-*` headers (`x-mcp-header`). */
  readonly headers: readonly HeaderParam[];
}

/** A server's schema settings, and its tools as it prepared them. */
export interface ToolSchemas extends SchemaSettings {
  /** Keyed by the config object: `update()` replaces it, so a changed schema is prepared afresh. */
  readonly tools: WeakMap<AnyToolConfig, PreparedTool>;
}

/** Checks a tool's configuration at registration (schemas must describe objects). */
export function prepareTool(name: string, config: AnyToolConfig, schemas: ToolSchemas): PreparedTool {
  let tool = schemas.tools.get(config);
  // Stryker disable next-line ConditionalExpression: preparing the same configuration again gives the same schemas and checks; the cache
  // only saves the work
  if (!tool) {
    const owner = `tool ${JSON.stringify(name)}`;
    const input = config.inputSchema ? prepareObjectSchema(config.inputSchema, "input", owner, schemas) : EMPTY_INPUT;
    const output = config.outputSchema ? prepareObjectSchema(config.outputSchema, "output", owner, schemas) : undefined;
    const headers = headerParamsOf(input.jsonSchema);
    if (!headers.ok)
      throw new MCPError(MCP_CODES.INVALID_PARAMS, `The x-mcp-header annotations of ${owner} are invalid: ${headers.reason}`);
    const wire = describeTool(name, config, input, output);
    const { execution: _execution, ...extensionWire } = wire;
    tool = { input, output, wire, extensionWire: config.execution ? extensionWire : wire, headers: headers.params };
    schemas.tools.set(config, tool);
  }
  return tool;
}

function describeTool(name: string, config: AnyToolConfig, input: PreparedSchema, output: PreparedSchema | undefined): Tool {
  const { inputSchema: _input, outputSchema: _output, cache: _cache, requiredScopes: _scopes, task: _task, ...rest } = config;
  const tool = { name, ...rest, inputSchema: input.jsonSchema } as Tool;
  return output ? { ...tool, outputSchema: output.jsonSchema as Tool["outputSchema"] } : tool;
}

/**
 * The registration check: prepares the tool now when it can, so a schema that is no object schema
 * is refused at once. A zod/mini schema waits for zod's converter (checked by its definition till
 * then): the answer says whether the tool waits for it.
 */
export function checkTool(name: string, config: AnyToolConfig, schemas: ToolSchemas): boolean {
  const owner = `tool ${JSON.stringify(name)}`;
  // Both checked, so a waiting schema on either side is checked by its definition.
  const input = waitsForConverter(config.inputSchema, "input", owner);
  const output = waitsForConverter(config.outputSchema, "output", owner);
  if (input || output) return true;
  prepareTool(name, config, schemas);
  return false;
}

/** The header-mirrored arguments of a tool. */
export function toolHeaderParams(entry: ToolEntry, schemas: ToolSchemas): readonly HeaderParam[] {
  return prepareTool(entry.key, entry.config, schemas).headers;
}

/** The tool as a tools/list of `rules`' revision shows it. */
export function toolOnTheWire(entry: ToolEntry, rules: RevisionProfile, schemas: ToolSchemas): Tool {
  const tool = prepareTool(entry.key, entry.config, schemas);
  return rules.tasks === "extension" ? tool.extensionWire : tool.wire;
}

/**
 * Checks what a tool says of tasks at registration: `execution.taskSupport` is one of the three
 * levels, and one other than `forbidden` needs the server's `tasks` option.
 */
export function checkTaskSupport(name: string, config: AnyToolConfig, tasks: TaskSupport | undefined): void {
  const support: unknown = config.execution?.taskSupport;
  if (support === undefined || support === "forbidden") return;
  if (support !== "optional" && support !== "required")
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      `Tool ${JSON.stringify(name)}: execution.taskSupport must be "forbidden", "optional" or "required"`,
    );
  if (!tasks)
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      `Tool ${JSON.stringify(name)} may run as a task: give the server the tasks option (new MCPServer(info, { tasks: serverTasks() }))`,
    );
}

/**
 * Runs `tools/call`: unknown tool and bad arguments as the revision says, a throwing handler as an
 * `isError` result; with `tasks`, a call that becomes a task is answered as the revision has it.
 */
export function callTool(
  entry: ToolEntry | undefined,
  params: CallToolRequestParams,
  context: HandlerContext,
  rules: RevisionProfile,
  schemas: ToolSchemas,
  tasks?: TaskSupport,
): Promise<JsonObject> | JsonObject {
  if (!entry) throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, `Unknown tool: ${params.name}`);
  const tool = prepareTool(entry.key, entry.config, schemas);
  const args = tool.input.check(params.arguments ?? {});
  // A Standard Schema validator answers later; zod and JSON Schema at once (a refusal thrown as it is found), with no closure per call.
  return args instanceof Promise
    ? args.then((checked) => withArguments(checked, entry, params, context, rules, tool.output, tasks))
    : withArguments(args, entry, params, context, rules, tool.output, tasks);
}

/** The handler run with the checked arguments (in the request, or as a task), or their refusal as the revision says. */
function withArguments(
  checked: ValidationResult<unknown>,
  entry: ToolEntry,
  params: CallToolRequestParams,
  context: HandlerContext,
  rules: RevisionProfile,
  output: PreparedSchema | undefined,
  tasks: TaskSupport | undefined,
): Promise<JsonObject> | JsonObject {
  if (checked.ok)
    return (tasks && asTask(tasks, entry, params, checked.value, context, rules, output)) ?? runTool(entry, checked.value, context, output);
  const message = `Invalid arguments for tool ${params.name}: ${checked.issues}`;
  if (rules.invalidToolArguments === "protocol-error") throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, message);
  return toolError(message);
}

/** The call as the tasks implementation sees it: its answer when the call becomes a task. */
function asTask(
  tasks: TaskSupport,
  entry: ToolEntry,
  params: CallToolRequestParams,
  args: unknown,
  context: HandlerContext,
  rules: RevisionProfile,
  output: PreparedSchema | undefined,
): Promise<JsonObject> | undefined {
  const { execution, task } = entry.config;
  const call: TaskCall = {
    name: entry.key,
    support: execution?.taskSupport ?? "forbidden",
    tool: task,
    params,
    args,
    run: (own) => runTool(entry, args, own, output),
  };
  return tasks.callTool(call, context, rules);
}

// Kept apart from the checks so that a tool call in progress holds only what it needs.
async function runTool(
  entry: ToolEntry,
  args: unknown,
  context: HandlerContext,
  output: PreparedSchema | undefined,
): Promise<CallToolResult> {
  let result: CallToolResult;
  try {
    result = await entry.handler(args as never, context);
  } catch (error) {
    // Protocol-level refusals (e.g. -32042 URL elicitation required) stay protocol errors; the rest is the tool's failure.
    if (error instanceof JsonRpcError || (error instanceof MCPError && error.code === "MCP.REQUEST_CANCELLED")) throw error;
    return toolError(describeThrown(error));
  }
  return output && !result.isError ? await checkStructuredOutput(entry.key, output, result) : withTextFallback(result);
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

async function checkStructuredOutput(name: string, output: PreparedSchema, result: CallToolResult): Promise<CallToolResult> {
  if (result.structuredContent === undefined) {
    throw new JsonRpcError(JSONRPC_ERROR_CODES.INTERNAL_ERROR, `Tool ${name} has an output schema but returned no structuredContent`);
  }
  const checked = await output.check(result.structuredContent);
  if (!checked.ok)
    throw new JsonRpcError(
      JSONRPC_ERROR_CODES.INTERNAL_ERROR,
      `Tool ${name} returned structuredContent that does not match its output schema: ${checked.issues}`,
    );
  return withTextFallback(result);
}

/** Structured results also carry their JSON as text, for clients that read only `content`. */
function withTextFallback(result: CallToolResult): CallToolResult {
  if (result.structuredContent === undefined || result.content.length > 0) return result;
  return withFields(result, { content: [{ type: "text", text: JSON.stringify(result.structuredContent) }] });
}
