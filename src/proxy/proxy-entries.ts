// What a proxy registers on its server for what the upstream lists now: one entry per tool, prompt,
// resource template and resource, named as the upstream names it (under the prefix, if any), each
// answered by a call of the upstream client made for the downstream request.
import type { MCPClient } from "../client/mcp-client/mcp-client.js";
import type { CallOptions, CompletionReference } from "../client/mcp-client/mcp-client.types.js";
import { META_KEYS } from "../constants/index.js";
import { MCP_CODES } from "../error-codes/error-codes.js";
import { JsonRpcError, MCPError } from "../error-codes/mcp-error.js";
import type { Prompt, Resource, ResourceTemplate, ServerCapabilities, Tool } from "../schemas/schemas.js";
import { defined, type Wanted } from "../server/compose/mount-entries.js";
import type { MCPServer } from "../server/mcp-server/mcp-server.js";
import type { Completer, HandlerContext } from "../server/mcp-server/mcp-server.types.js";
import { UriTemplate } from "../uri-template/uri-template.js";
import type { InputRouter } from "./input-router.js";
import { withFields } from "../types/objects.js";

/** What one proxy knows while it builds its entries. */
export interface ProxyScope {
  readonly server: MCPServer;
  readonly upstream: MCPClient;
  readonly router: InputRouter;
  /** The name a tool, prompt or template has on the proxy's server. */
  readonly named: (name: string) => string;
  /** How errors name the upstream. */
  readonly upstreamName: () => string;
}

type Entry = readonly [string, Wanted];

/** The upstream's error as the downstream caller gets it: its JSON-RPC code, message and data; a closed upstream named. */
export function downstreamError(error: unknown, upstreamName: string): unknown {
  if (!(error instanceof MCPError) || error.code === MCP_CODES.REQUEST_CANCELLED) return error;
  if (error.code === MCP_CODES.TRANSPORT_CLOSED) {
    return new JsonRpcError(error.wireCode, `The upstream server ${upstreamName} is closed (${error.code}): ${error.message}`, {
      code: error.code,
      upstream: upstreamName,
    });
  }
  return new JsonRpcError(error.wireCode, error.message, error.data);
}

/**
 * A result of the upstream without what its era put there for the proxy's client (`resultType`,
 * `ttlMs`, `cacheScope`, the upstream's `serverInfo` in `_meta`): the proxy's server adds its own.
 */
export function withoutEra<T>(result: T): T {
  const { resultType: _type, ttlMs: _ttl, cacheScope: _scope, _meta, ...rest } = result as Record<string, unknown>;
  if (_meta === undefined) return rest as T;
  const { [META_KEYS.serverInfo]: _server, ...meta } = _meta as Record<string, unknown>;
  return (Object.keys(meta).length === 0 ? rest : withFields(rest, { _meta: meta })) as T;
}

/** One call of the upstream for the downstream request `context`. */
async function forwarded<T>(scope: ProxyScope, context: HandlerContext, call: (options: CallOptions) => Promise<T>): Promise<T> {
  try {
    return withoutEra(await scope.router.run(context, call));
  } catch (error) {
    throw downstreamError(error, scope.upstreamName());
  }
}

/** The entries the server should hold for what the upstream lists now (only the lists it declares). */
export async function proxiedEntries(scope: ProxyScope): Promise<Map<string, Wanted>> {
  const { upstream } = scope;
  // Set at connect, which proxy() checked.
  const declared = upstream.serverCapabilities as ServerCapabilities;
  const none = Promise.resolve([]);
  const [tools, prompts, templates, resources] = await Promise.all([
    declared.tools ? upstream.listAllTools() : none,
    declared.prompts ? upstream.listAllPrompts() : none,
    declared.resources ? upstream.listAllResourceTemplates() : none,
    declared.resources ? upstream.listAllResources() : none,
  ]);
  const completes = declared.completions !== undefined;
  return new Map([
    ...tools.map((tool) => toolEntry(scope, tool)),
    ...prompts.map((prompt) => promptEntry(scope, prompt, completes)),
    ...templates.map((template) => templateEntry(scope, template, completes)),
    ...resources.map((resource) => resourceEntry(scope, resource)),
  ]);
}

function toolEntry(scope: ProxyScope, tool: Tool): Entry {
  const name = scope.named(tool.name);
  const { name: original, inputSchema, outputSchema, ...described } = tool;
  const config = defined({ ...described, inputSchema, outputSchema });
  const call = (args: Record<string, unknown>, context: HandlerContext) =>
    forwarded(scope, context, (options) => scope.upstream.callTool(original, args as never, options));
  return [`tool ${name}`, { signature: JSON.stringify([original, config]), register: () => scope.server.tool(name, config, call) }];
}

/** Completes one argument or variable through the upstream's `completion/complete`. */
function completer(scope: ProxyScope, ref: CompletionReference, argument: string): Completer {
  return async (value, { arguments: given, handler }) => {
    const result = await forwarded(scope, handler, (options) =>
      scope.upstream.complete(ref, { name: argument, value }, { arguments: { ...given } }, options),
    );
    return result.completion.values;
  };
}

function promptEntry(scope: ProxyScope, prompt: Prompt, completes: boolean): Entry {
  const name = scope.named(prompt.name);
  const { name: original, arguments: args = [], ...described } = prompt;
  const ref = { type: "ref/prompt", name: original } as const;
  const argumentConfigs = args.map(({ name: argument, ...rest }) => [
    argument,
    completes ? { ...rest, complete: completer(scope, ref, argument) } : rest,
  ]);
  const config = defined({ ...described, arguments: Object.fromEntries(argumentConfigs) });
  const get = (given: Readonly<Record<string, string>>, context: HandlerContext) =>
    forwarded(scope, context, (options) => scope.upstream.getPrompt(original, given, options));
  return [
    `prompt ${name}`,
    { signature: JSON.stringify([original, config, completes]), register: () => scope.server.prompt(name, config, get) },
  ];
}

function templateEntry(scope: ProxyScope, template: ResourceTemplate, completes: boolean): Entry {
  const name = scope.named(template.name);
  const { name: _name, uriTemplate, ...described } = template;
  const ref = { type: "ref/resource", uri: uriTemplate } as const;
  const variables = UriTemplate.parse(uriTemplate).variableNames;
  const config = defined({
    ...described,
    complete: completes ? Object.fromEntries(variables.map((variable) => [variable, completer(scope, ref, variable)])) : undefined,
  });
  const read = (uri: string, _variables: unknown, context: HandlerContext) =>
    forwarded(scope, context, (options) => scope.upstream.readResource(uri, options));
  return [
    `template ${name}`,
    {
      signature: JSON.stringify([uriTemplate, described, completes]),
      register: () => scope.server.resourceTemplate(name, uriTemplate, config, read),
    },
  ];
}

function resourceEntry(scope: ProxyScope, resource: Resource): Entry {
  const { uri, name, ...described } = resource;
  const read = (_uri: string, context: HandlerContext) => forwarded(scope, context, (options) => scope.upstream.readResource(uri, options));
  return [
    `resource ${uri}`,
    { signature: JSON.stringify([name, described]), register: () => scope.server.resource(name, uri, defined(described), read) },
  ];
}
