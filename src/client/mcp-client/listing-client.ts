import { toMCPError, type MCPError } from "../../error-codes/mcp-error.js";
import type { Prompt, Resource, ResourceTemplate, Tool } from "../../schemas/schemas.js";
import { cachedKinds, LIST_KIND_NAMES } from "./client-options.js";
import { ListCache } from "./list-cache.js";
import { collect, DEFAULT_MAX_LIST_PAGES, LIST_KINDS, paginate, type ItemOf, type ListKind, type PageOf } from "./lists.js";
import type { CallOptions, MCPClientOptions } from "./mcp-client.types.js";

type ListCaches = { [K in ListKind]?: ListCache<ItemOf<K>> };

/**
 * The four paginated lists of a client: one page, every item (async iteration), all items at once
 * (kept, with option `cache`, until the server says the list changed). How a page is asked for is
 * the client's (`listPage`).
 */
export abstract class ListingClient {
  /** Each list's, made when it is first listed whole (most clients never list some of them). */
  #caches: ListCaches | undefined;
  readonly #cachedKinds: ReadonlySet<ListKind>;
  readonly #maxPages: number;

  constructor(options: Pick<MCPClientOptions, "cache" | "maxListPages">) {
    this.#cachedKinds = cachedKinds(options.cache);
    this.#maxPages = options.maxListPages ?? DEFAULT_MAX_LIST_PAGES;
  }

  listTools(cursor?: string, options?: CallOptions): Promise<PageOf<"tools">> {
    return this.listPage("tools", cursor, options);
  }

  tools(options?: CallOptions): AsyncGenerator<Tool, void, undefined> {
    return this.items("tools", options);
  }

  listAllTools(options?: CallOptions): Promise<Tool[]> {
    return this.#listAll("tools", options);
  }

  listResources(cursor?: string, options?: CallOptions): Promise<PageOf<"resources">> {
    return this.listPage("resources", cursor, options);
  }

  resources(options?: CallOptions): AsyncGenerator<Resource, void, undefined> {
    return this.items("resources", options);
  }

  listAllResources(options?: CallOptions): Promise<Resource[]> {
    return this.#listAll("resources", options);
  }

  listResourceTemplates(cursor?: string, options?: CallOptions): Promise<PageOf<"resourceTemplates">> {
    return this.listPage("resourceTemplates", cursor, options);
  }

  resourceTemplates(options?: CallOptions): AsyncGenerator<ResourceTemplate, void, undefined> {
    return this.items("resourceTemplates", options);
  }

  listAllResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]> {
    return this.#listAll("resourceTemplates", options);
  }

  listPrompts(cursor?: string, options?: CallOptions): Promise<PageOf<"prompts">> {
    return this.listPage("prompts", cursor, options);
  }

  prompts(options?: CallOptions): AsyncGenerator<Prompt, void, undefined> {
    return this.items("prompts", options);
  }

  listAllPrompts(options?: CallOptions): Promise<Prompt[]> {
    return this.#listAll("prompts", options);
  }

  /** One page of a list, as this client asks for it. */
  protected abstract listPage<K extends ListKind>(
    kind: K,
    cursor: string | undefined,
    options: CallOptions | undefined,
  ): Promise<PageOf<K>>;

  /** A kept list, listed again after the server said it changed. */
  protected abstract refreshed(kind: ListKind, items: readonly unknown[]): void;

  protected abstract reportError(error: MCPError): void;

  /** The lists kept (option `cache`). */
  protected get cachedKinds(): ReadonlySet<ListKind> {
    return this.#cachedKinds;
  }

  /** The tools as listed (the kept listing, when there is one that is still current). */
  protected listedTools(): Promise<Tool[]> {
    return this.#cache("tools").get();
  }

  protected items<K extends ListKind>(kind: K, options: CallOptions | undefined): AsyncGenerator<ItemOf<K>, void, undefined> {
    return paginate(kind, (cursor) => this.listPage(kind, cursor, options), this.#maxPages);
  }

  /** The server said `method`: the lists it names are forgotten, and the kept ones listed again. */
  protected listsChanged(method: string): void {
    for (const kind of LIST_KIND_NAMES) {
      if (LIST_KINDS[kind].changedBy !== method) continue;
      this.#caches?.[kind]?.invalidate();
      if (this.#cachedKinds.has(kind)) this.#refresh(kind);
    }
  }

  protected forgetLists(): void {
    if (this.#caches) for (const kind of LIST_KIND_NAMES) this.#caches[kind]?.invalidate();
  }

  async #listAll<K extends ListKind>(kind: K, options: CallOptions | undefined): Promise<ItemOf<K>[]> {
    if (!this.#cachedKinds.has(kind)) return collect(this.items(kind, options));
    const items: ItemOf<K>[] = await this.#cache(kind).get();
    return items.slice();
  }

  #cache<K extends ListKind>(kind: K): ListCache<ItemOf<K>> {
    const caches: { [L in ListKind]?: ListCache<unknown> } = (this.#caches ??= {});
    return (caches[kind] ??= new ListCache(() => collect(this.items(kind, undefined)))) as ListCache<ItemOf<K>>;
  }

  #refresh(kind: ListKind): void {
    this.#cache(kind)
      .get()
      .then(
        (items) => this.refreshed(kind, items),
        (error: unknown) => this.reportError(toMCPError(error)),
      );
  }
}
