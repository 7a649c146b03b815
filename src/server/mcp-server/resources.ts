import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { ReadResourceResult, Resource, ResourceTemplate } from "../../schemas/schemas.js";
import type { UriTemplateMatcher } from "../../uri-template/uri-template.js";
import type { Registry, Entry } from "./registry.js";
import type { HandlerContext, ResourceConfig, ResourceReader, ResourceTemplateConfig, TemplateReader } from "./mcp-server.types.js";

export type StaticResourceConfig = ResourceConfig & { readonly name: string };
// A matcher, not a `UriTemplate`: the server never expands, so an app that does not import `UriTemplate` bundles
// no expansion code. A `UriTemplate` given to `update()` is one.
export type TemplateConfig = ResourceTemplateConfig & { readonly uriTemplate: UriTemplateMatcher };
export type ResourceEntry = Entry<StaticResourceConfig, ResourceReader>;
export type TemplateEntry = Entry<TemplateConfig, TemplateReader>;

export function resourceOnTheWire(entry: ResourceEntry): Resource {
  const { cache: _cache, requiredScopes: _scopes, ...config } = entry.config;
  return { uri: entry.key, ...config };
}

export function templateOnTheWire(entry: TemplateEntry): ResourceTemplate {
  const { uriTemplate, list: _list, complete: _complete, cache: _cache, requiredScopes: _scopes, ...rest } = entry.config;
  return { name: entry.key, uriTemplate: uriTemplate.template, ...rest };
}

/** Static resources first, then what each template enumerates. */
export async function listAllResources(
  resources: Registry<StaticResourceConfig, ResourceReader>,
  templates: Registry<TemplateConfig, TemplateReader>,
  context: HandlerContext,
): Promise<Resource[]> {
  const listed = resources.enabled().map(resourceOnTheWire);
  for (const template of templates.enabled()) {
    if (template.config.list) listed.push(...(await template.config.list(context)));
  }
  return listed;
}

/** The registration a URI reads from: a static resource by exact URI, else the first template that matches. */
export function resourceEntryOf(
  uri: string,
  resources: Registry<StaticResourceConfig, ResourceReader>,
  templates: Registry<TemplateConfig, TemplateReader>,
): ResourceEntry | TemplateEntry | undefined {
  return resources.get(uri) ?? templates.enabled().find((template) => template.config.uriTemplate.match(uri) !== undefined);
}

/**
 * A static resource by exact URI, else the first template that matches; not found (-32002, or -32602 in the stateless era) when none does.
 */
export async function readResource(
  uri: string,
  resources: Registry<StaticResourceConfig, ResourceReader>,
  templates: Registry<TemplateConfig, TemplateReader>,
  context: HandlerContext,
): Promise<ReadResourceResult> {
  const resource = resources.get(uri);
  if (resource) return resource.handler(uri, context);
  for (const template of templates.enabled()) {
    const variables = template.config.uriTemplate.match(uri);
    if (variables) return template.handler(uri, variables, context);
  }
  throw new MCPError(MCP_CODES.NOT_FOUND, `Resource not found: ${uri}`, { data: { uri } });
}
