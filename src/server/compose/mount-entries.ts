// What a mount puts in its parent: one parent entry per tool, prompt, resource and resource template
// the child lists now, named under the prefix, each answered by the child's own feature handlers
// with the parent's handler context (so the child's checks and its handlers' ctx work as they do
// when the child is served itself).
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { profileOf } from "../../protocol/profiles.js";
import type {
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from "../../schemas/schemas.js";
import type { JsonObject } from "../../types/types.js";
import { UriTemplate } from "../../uri-template/uri-template.js";
import type { MCPServer } from "../mcp-server/mcp-server.js";
import type { Completer, HandlerContext, JsonSchemaObject } from "../mcp-server/mcp-server.types.js";
import type { ToolTransform } from "./mount.types.js";

/** What one mount knows while it builds its entries. */
export interface MountScope {
  readonly parent: MCPServer;
  readonly child: MCPServer;
  readonly prefix: string;
  readonly separator: string;
  readonly tools: Readonly<Record<string, ToolTransform>>;
  /** The child's static resource URIs at the last sync: what its templates enumerate is the rest of its list. */
  statics: ReadonlySet<string>;
}

/** One entry the parent should hold: what tells it from another version of itself, and how to register it. */
export interface Wanted {
  readonly signature: string;
  readonly register: () => { remove(): void };
}

type FeatureCall = (params: JsonObject, context: HandlerContext, profile: ReturnType<typeof profileOf>) => unknown;

const SCHEMED = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)(.*)$/s;

/** `scheme://rest` as `scheme://<prefix>/rest`; undefined for a URI (or template) without `scheme://`. */
export function prefixUri(uri: string, prefix: string): string | undefined {
  const parts = SCHEMED.exec(uri);
  return parts ? `${parts[1]}${prefix}/${parts[2]}` : undefined;
}

/** The child's URI of a URI the mount made (only those reach a mounted template's reader). */
function unprefixUri(uri: string, prefix: string): string {
  const [, scheme, rest] = SCHEMED.exec(uri) as RegExpExecArray;
  return `${scheme}${(rest as string).slice(prefix.length + 1)}`;
}

/** Runs one of the child's feature handlers, as the child's request paths do, in the revision of the parent's request. */
async function callChild<T>(child: MCPServer, method: string, params: JsonObject, context: HandlerContext): Promise<T> {
  const handler = child.featureHandlers().get(method) as unknown as FeatureCall;
  return (await handler(params, context, profileOf(context.protocolVersion))) as T;
}

/** Every page of one of the child's lists. */
async function listAll<T>(child: MCPServer, method: string, key: string, context: HandlerContext): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await callChild<Record<string, unknown>>(child, method, cursor === undefined ? {} : { cursor }, context);
    items.push(...(page[key] as T[]));
    cursor = page["nextCursor"] as string | undefined;
  } while (cursor !== undefined);
  return items;
}

function refuse(): Promise<never> {
  return Promise.reject(new MCPError(MCP_CODES.METHOD_NOT_FOUND, "No client to ask: a mount lists its child outside any request"));
}

function quiet(): Promise<void> {
  return Promise.resolve();
}

/** The context the child's lists get when the mount syncs, outside any request: no client to ask, nothing to report to. */
function syncContext(): HandlerContext {
  return {
    requestId: "mount",
    meta: undefined,
    inbound: undefined,
    protocolVersion: "2025-11-25",
    era: "session",
    client: { info: undefined, capabilities: {} },
    logLevel: undefined,
    principal: undefined,
    signal: new AbortController().signal,
    session: undefined,
    progress: quiet,
    log: quiet,
    createMessage: refuse,
    elicitInput: refuse,
    listRoots: refuse,
  };
}

/** The entries the parent should hold for what the child lists now, in the order: tools, prompts, templates, resources. */
export async function wantedEntries(scope: MountScope): Promise<Map<string, Wanted>> {
  const { child } = scope;
  const context = syncContext();
  const [tools, prompts, templates, resources] = await Promise.all([
    listAll<Tool>(child, "tools/list", "tools", context),
    listAll<Prompt>(child, "prompts/list", "prompts", context),
    listAll<ResourceTemplate>(child, "resources/templates/list", "resourceTemplates", context),
    listAll<Resource>(child, "resources/list", "resources", context),
  ]);
  const completes = child.capabilitiesFor(profileOf("2025-11-25")).completions !== undefined;
  scope.statics = new Set(resources.filter((resource) => isStatic(child, resource.uri)).map((resource) => resource.uri));
  const entries: (readonly [string, Wanted] | undefined)[] = [
    ...tools.map((tool) => toolEntry(scope, tool)),
    ...prompts.map((prompt) => promptEntry(scope, prompt, completes)),
    ...templates
      .filter((template) => prefixUri(template.uriTemplate, scope.prefix) !== undefined)
      .map((template, index) => templateEntry(scope, template, index === 0, completes)),
    ...resources.filter((resource) => scope.statics.has(resource.uri)).map((resource) => resourceEntry(scope, resource)),
  ];
  return new Map(entries.filter((entry) => entry !== undefined));
}

/** Whether a listed URI is one of the child's static resources (not one its templates enumerate). */
function isStatic(child: MCPServer, uri: string): boolean {
  const entry = child.registrationOf("resources/read", { uri });
  return entry !== undefined && !("uriTemplate" in entry.config);
}

/** The fields of `object` that are not undefined. */
export function defined<T extends object>(object: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

/** What only the child's registration knows of an entry (lists do not show it): its scopes and caching hint. */
function ownSettings(child: MCPServer, method: string, params: JsonObject): JsonObject {
  const { requiredScopes, cache } = (child.registrationOf(method, params) as NonNullable<ReturnType<MCPServer["registrationOf"]>>).config;
  return defined({ requiredScopes, cache }) as JsonObject;
}

function toolEntry(scope: MountScope, tool: Tool): readonly [string, Wanted] | undefined {
  const transform = scope.tools[tool.name] ?? {};
  if (transform.hidden === true) return undefined;
  const name = `${scope.prefix}${scope.separator}${transform.name ?? tool.name}`;
  const { name: original, inputSchema, outputSchema, ...described } = tool;
  const config = defined({
    ...described,
    ...ownSettings(scope.child, "tools/call", { name: original }),
    description: transform.description ?? described.description,
    inputSchema: advertisedInput(inputSchema, transform),
    outputSchema,
  });
  const handler = toolHandler(scope.child, original, transform);
  return [`tool ${name}`, { signature: JSON.stringify([original, config]), register: () => scope.parent.tool(name, config, handler) }];
}

/** The child's input schema without the fixed arguments, and with the defaulted ones optional. */
function advertisedInput(schema: Tool["inputSchema"], { fixed = {}, defaults = {} }: ToolTransform): JsonSchemaObject {
  const properties = Object.entries(schema.properties ?? {})
    .filter(([name]) => !(name in fixed))
    .map(([name, property]) => [name, name in defaults ? { ...(property as object), default: defaults[name] } : property]);
  const required = schema.required?.filter((name) => !(name in fixed) && !(name in defaults));
  return defined({ ...schema, properties: Object.fromEntries(properties), required });
}

function toolHandler(
  child: MCPServer,
  original: string,
  transform: ToolTransform,
): (args: Record<string, unknown>, context: HandlerContext) => Promise<CallToolResult> {
  const callWith = (context: HandlerContext) => (args: Record<string, unknown>) =>
    callChild<CallToolResult>(child, "tools/call", { name: original, arguments: args }, context);
  return (args, context) => {
    const full = { ...transform.defaults, ...args, ...transform.fixed };
    return transform.wrap ? transform.wrap(callWith(context), full, context) : callWith(context)(full);
  };
}

/** A completer that asks the child's `completion/complete` for the same argument of its own entry. */
function completer(child: MCPServer, ref: CompleteRequestParams["ref"], argument: string): Completer {
  return async (value, { arguments: given, handler }) => {
    const result = await callChild<CompleteResult>(
      child,
      "completion/complete",
      { ref, argument: { name: argument, value }, context: { arguments: given } },
      handler,
    );
    return result.completion.values;
  };
}

function promptEntry(scope: MountScope, prompt: Prompt, completes: boolean): readonly [string, Wanted] {
  const name = `${scope.prefix}${scope.separator}${prompt.name}`;
  const { name: original, arguments: args, ...described } = prompt;
  const ref = { type: "ref/prompt", name: original } as const;
  const argumentConfigs = args?.map(({ name: argument, ...rest }) => [
    argument,
    completes ? { ...rest, complete: completer(scope.child, ref, argument) } : rest,
  ]);
  const config = defined({
    ...described,
    ...ownSettings(scope.child, "prompts/get", { name: original }),
    arguments: argumentConfigs && Object.fromEntries(argumentConfigs),
  });
  const get = (given: Readonly<Record<string, string>>, context: HandlerContext) =>
    callChild<never>(scope.child, "prompts/get", { name: original, arguments: given }, context);
  return [
    `prompt ${name}`,
    { signature: JSON.stringify([original, config, completes]), register: () => scope.parent.prompt(name, config, get) },
  ];
}

/** Reads the child's URI; the contents name the parent's URIs. */
async function readChild(scope: MountScope, uri: string, context: HandlerContext): Promise<ReadResourceResult> {
  const result = await callChild<ReadResourceResult>(scope.child, "resources/read", { uri }, context);
  return {
    ...result,
    contents: result.contents.map((content) => ({ ...content, uri: prefixUri(content.uri, scope.prefix) ?? content.uri })),
  };
}

/** What the child's templates enumerate for this request (its list less its static resources), under the prefix. */
async function listedByTemplates(scope: MountScope, context: HandlerContext): Promise<Resource[]> {
  const listed = await listAll<Resource>(scope.child, "resources/list", "resources", context);
  return listed
    .filter((resource) => !scope.statics.has(resource.uri))
    .flatMap((resource) => {
      const uri = prefixUri(resource.uri, scope.prefix);
      return uri === undefined ? [] : [{ ...resource, uri }];
    });
}

function resourceEntry(scope: MountScope, resource: Resource): readonly [string, Wanted] | undefined {
  const uri = prefixUri(resource.uri, scope.prefix);
  if (uri === undefined) return undefined;
  const { uri: original, name, ...described } = resource;
  const config = defined({ ...described, ...ownSettings(scope.child, "resources/read", { uri: original }) });
  return [
    `resource ${uri}`,
    {
      signature: JSON.stringify([original, name, config]),
      register: () => scope.parent.resource(name, uri, config, (_uri, context) => readChild(scope, original, context)),
    },
  ];
}

/** A template (with `scheme://`); the first one also lists, per request, what all of the child's templates enumerate. */
function templateEntry(scope: MountScope, template: ResourceTemplate, lists: boolean, completes: boolean): readonly [string, Wanted] {
  const uriTemplate = prefixUri(template.uriTemplate, scope.prefix) as string;
  const name = `${scope.prefix}${scope.separator}${template.name}`;
  const { name: _name, uriTemplate: original, ...described } = template;
  const ref = { type: "ref/resource", uri: original } as const;
  const variables = UriTemplate.parse(original).variableNames;
  const config = defined({
    ...described,
    list: lists ? (context: HandlerContext) => listedByTemplates(scope, context) : undefined,
    complete: completes ? Object.fromEntries(variables.map((variable) => [variable, completer(scope.child, ref, variable)])) : undefined,
  });
  const read = (uri: string, _variables: unknown, context: HandlerContext) => readChild(scope, unprefixUri(uri, scope.prefix), context);
  return [
    `template ${name}`,
    {
      signature: JSON.stringify([original, described, lists, completes]),
      register: () => scope.parent.resourceTemplate(name, uriTemplate, config, read),
    },
  ];
}
