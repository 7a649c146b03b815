// The four paginated lists, and how to walk one page after another.
import { METHODS, NOTIFICATIONS } from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type {
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
} from "../../schemas/schemas.js";
import type { ListCacheOptions } from "./mcp-client.types.js";

/** Each list by the key its items sit under in a page. */
export interface ListKinds {
  tools: { item: Tool; page: ListToolsResult };
  resources: { item: Resource; page: ListResourcesResult };
  resourceTemplates: { item: ResourceTemplate; page: ListResourceTemplatesResult };
  prompts: { item: Prompt; page: ListPromptsResult };
}

export type ListKind = keyof ListKinds;
export type ItemOf<K extends ListKind> = ListKinds[K]["item"];
export type PageOf<K extends ListKind> = ListKinds[K]["page"];

interface ListKindInfo {
  readonly method: string;
  /** The notification that says this list changed. */
  readonly changedBy: string;
  /** The `cache` option that keeps this list. */
  readonly cachedAs: keyof ListCacheOptions;
}

// Built by a pure call: bundlers keep a top-level object's reads of METHODS and NOTIFICATIONS in apps that never use it.
export const LIST_KINDS: { readonly [K in ListKind]: ListKindInfo } = /* @__PURE__ */ listKinds();

function listKinds(): { readonly [K in ListKind]: ListKindInfo } {
  return {
    tools: { method: METHODS.toolsList, changedBy: NOTIFICATIONS.toolsListChanged, cachedAs: "tools" },
    resources: { method: METHODS.resourcesList, changedBy: NOTIFICATIONS.resourcesListChanged, cachedAs: "resources" },
    resourceTemplates: { method: METHODS.resourcesTemplatesList, changedBy: NOTIFICATIONS.resourcesListChanged, cachedAs: "resources" },
    prompts: { method: METHODS.promptsList, changedBy: NOTIFICATIONS.promptsListChanged, cachedAs: "prompts" },
  };
}

export const DEFAULT_MAX_LIST_PAGES = 1000;

/** Yields the items of `kind` page after page, following `nextCursor`, for at most `maxPages` pages. */
export async function* paginate<K extends ListKind>(
  kind: K,
  fetchPage: (cursor: string | undefined) => Promise<PageOf<K>>,
  maxPages: number,
): AsyncGenerator<ItemOf<K>, void, undefined> {
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await fetchPage(cursor);
    yield* page[kind] as ItemOf<K>[];
    cursor = page.nextCursor;
    if (cursor === undefined) return;
    if (pages >= maxPages) {
      throw new MCPError(
        MCP_CODES.PROTOCOL_INVALID,
        `${LIST_KINDS[kind].method} still had a nextCursor after ${maxPages} pages; ` +
          "giving up (raise maxListPages if the server really has that many)",
      );
    }
  }
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
