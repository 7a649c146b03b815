// MCPClient walking paginated lists of the SDK's low-level Server, hearing list_changed, and keeping
// the opt-in cache that re-lists when the server says a list changed.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { connectToSdk, until } from "../src/client/mcp-client/mcp-client.test-helpers.js";
import { MCP_CODES, type MCPError, type ProgressNotificationParams, type Tool } from "../src/index.js";

/** Serves `items` in pages of `pageSize`; the cursor is the index of the next page's first item. */
function page<T>(items: readonly T[], cursor: string | undefined, pageSize: number): { items: T[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : Number(cursor);
  const next = start + pageSize;
  return next < items.length ? { items: items.slice(start, next), nextCursor: String(next) } : { items: items.slice(start) };
}

interface Catalogue {
  server: Server;
  requests: string[];
  setTools: (names: string[]) => void;
  failLists: (failing: boolean) => void;
}

/** A low-level SDK server with paginated tools, resources, templates and prompts, counting list requests. */
function catalogue(pageSize = 2): Catalogue {
  const server = new Server(
    { name: "catalogue", version: "1.0.0" },
    { capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true } } },
  );
  const requests: string[] = [];
  let toolNames = ["t1", "t2", "t3", "t4", "t5"];
  let failing = false;
  const served = <T>(method: string, items: readonly T[], cursor: string | undefined): { items: T[]; nextCursor?: string } => {
    requests.push(cursor === undefined ? method : `${method}@${cursor}`);
    if (failing) throw new Error(`${method} is down`);
    return page(items, cursor, pageSize);
  };
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const { items, nextCursor } = served(
      "tools/list",
      toolNames.map((name) => ({ name, inputSchema: { type: "object" as const } })),
      request.params?.cursor,
    );
    return { tools: items, ...(nextCursor !== undefined && { nextCursor }) };
  });
  server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    const { items, nextCursor } = served(
      "resources/list",
      ["a", "b", "c"].map((name) => ({ uri: `file:///${name}`, name })),
      request.params?.cursor,
    );
    return { resources: items, ...(nextCursor !== undefined && { nextCursor }) };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
    const { items, nextCursor } = served(
      "resources/templates/list",
      [{ uriTemplate: "file:///{path}", name: "file" }],
      request.params?.cursor,
    );
    return { resourceTemplates: items, ...(nextCursor !== undefined && { nextCursor }) };
  });
  server.setRequestHandler(ListPromptsRequestSchema, (request) => {
    const { items, nextCursor } = served(
      "prompts/list",
      ["p1", "p2", "p3", "p4"].map((name) => ({ name })),
      request.params?.cursor,
    );
    return { prompts: items, ...(nextCursor !== undefined && { nextCursor }) };
  });
  return {
    server,
    requests,
    setTools: (names) => {
      toolNames = names;
    },
    failLists: (value) => {
      failing = value;
    },
  };
}

describe("MCPClient pagination against the SDK's low-level Server", () => {
  it("follows nextCursor through every page of every list", async () => {
    const { server, requests } = catalogue();
    const client = await connectToSdk(server);
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["t1", "t2", "t3", "t4", "t5"]);
    expect(requests).toEqual(["tools/list", "tools/list@2", "tools/list@4"]);
    expect((await client.listAllResources()).map((resource) => resource.uri)).toEqual(["file:///a", "file:///b", "file:///c"]);
    expect((await client.listAllResourceTemplates()).map((template) => template.name)).toEqual(["file"]);
    expect((await client.listAllPrompts()).map((prompt) => prompt.name)).toEqual(["p1", "p2", "p3", "p4"]);
    expect(requests.slice(3)).toEqual(["resources/list", "resources/list@2", "resources/templates/list", "prompts/list", "prompts/list@2"]);
    await client.close();
  });

  it("iterates lazily with for await, one page at a time", async () => {
    const { server, requests } = catalogue();
    const client = await connectToSdk(server);
    const names: string[] = [];
    for await (const tool of client.tools()) {
      names.push(tool.name);
      if (names.length === 3) break;
    }
    expect(names).toEqual(["t1", "t2", "t3"]);
    expect(requests).toEqual(["tools/list", "tools/list@2"]);
    const uris: string[] = [];
    for await (const resource of client.resources()) uris.push(resource.uri);
    const templates: string[] = [];
    for await (const template of client.resourceTemplates()) templates.push(template.uriTemplate);
    const prompts: string[] = [];
    for await (const prompt of client.prompts()) prompts.push(prompt.name);
    expect([uris, templates, prompts]).toEqual([["file:///a", "file:///b", "file:///c"], ["file:///{path}"], ["p1", "p2", "p3", "p4"]]);
    await client.close();
  });

  it("fetches single pages by cursor", async () => {
    const { server } = catalogue();
    const client = await connectToSdk(server);
    const first = await client.listTools();
    expect(first).toMatchObject({ tools: [{ name: "t1" }, { name: "t2" }], nextCursor: "2" });
    expect(await client.listTools(first.nextCursor)).toMatchObject({ tools: [{ name: "t3" }, { name: "t4" }], nextCursor: "4" });
    expect(await client.listResources("2")).toEqual({ resources: [{ uri: "file:///c", name: "c" }] });
    expect(await client.listResourceTemplates()).toEqual({ resourceTemplates: [{ uriTemplate: "file:///{path}", name: "file" }] });
    expect(await client.listPrompts("2")).toEqual({ prompts: [{ name: "p3" }, { name: "p4" }] });
    await client.close();
  });

  it("gives up with a clear error on a server whose cursor never ends", async () => {
    const server = new Server({ name: "endless", version: "1.0.0" }, { capabilities: { tools: {} } });
    let pages = 0;
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: `t${++pages}`, inputSchema: { type: "object" as const } }],
      nextCursor: "again",
    }));
    const client = await connectToSdk(server, { maxListPages: 5 });
    await expect(client.listAllTools()).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      message: expect.stringMatching(/tools\/list still had a nextCursor after 5 pages.*maxListPages/),
    });
    expect(pages).toBe(5);
    await client.close();
  });
});

describe("MCPClient list_changed listeners and the refreshing cache", () => {
  it("tells listeners about each list_changed, and about progress that belongs to no call", async () => {
    const { server } = catalogue();
    const client = await connectToSdk(server);
    const heard: string[] = [];
    client.on("toolsListChanged", () => heard.push("tools"));
    client.on("resourcesListChanged", () => heard.push("resources"));
    const stopPrompts = client.on("promptsListChanged", () => heard.push("prompts"));
    const progress: ProgressNotificationParams[] = [];
    client.on("progress", (update) => progress.push(update));
    await server.sendToolListChanged();
    await server.sendResourceListChanged();
    await server.sendPromptListChanged();
    await server.notification({ method: "notifications/progress", params: { progressToken: "background-job", progress: 40, total: 100 } });
    await until(() => progress.length === 1);
    expect(heard).toEqual(["tools", "resources", "prompts"]);
    expect(progress).toEqual([{ progressToken: "background-job", progress: 40, total: 100 }]);
    stopPrompts();
    await server.sendPromptListChanged();
    await server.sendToolListChanged();
    await until(() => heard.length === 4);
    expect(heard.at(-1)).toBe("tools");
    await client.close();
  });

  it("serves cached lists and re-lists them when the server says they changed", async () => {
    const { server, requests, setTools } = catalogue(10);
    const client = await connectToSdk(server, { cache: true });
    const first = await client.listAllTools();
    first.pop();
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["t1", "t2", "t3", "t4", "t5"]);
    await client.listAllResources();
    await client.listAllResources();
    await client.listAllResourceTemplates();
    await client.listAllPrompts();
    await client.listAllPrompts();
    expect(requests).toEqual(["tools/list", "resources/list", "resources/templates/list", "prompts/list"]);

    const refreshed: Tool[][] = [];
    client.on("toolsRefreshed", (tools) => refreshed.push([...tools]));
    setTools(["renamed"]);
    await server.sendToolListChanged();
    await until(() => refreshed.length === 1);
    expect(refreshed[0]?.map((tool) => tool.name)).toEqual(["renamed"]);
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["renamed"]);
    expect(requests.filter((request) => request === "tools/list")).toHaveLength(2);

    const resourceLists: string[] = [];
    client.on("resourcesRefreshed", (resources) => resourceLists.push(`resources:${resources.length}`));
    client.on("resourceTemplatesRefreshed", (templates) => resourceLists.push(`templates:${templates.length}`));
    client.on("promptsRefreshed", (prompts) => resourceLists.push(`prompts:${prompts.length}`));
    await server.sendResourceListChanged();
    await server.sendPromptListChanged();
    await until(() => resourceLists.length === 3);
    expect(resourceLists.toSorted()).toEqual(["prompts:4", "resources:3", "templates:1"]);
    await client.close();
  });

  it("caches only the lists asked for, and re-lists only those when they change", async () => {
    const { server, requests } = catalogue(10);
    const client = await connectToSdk(server, { cache: { prompts: true } });
    await client.listAllTools();
    await client.listAllTools();
    await client.listAllPrompts();
    await client.listAllPrompts();
    expect(requests).toEqual(["tools/list", "tools/list", "prompts/list"]);
    const heard = new Promise((resolve) => client.on("toolsListChanged", resolve));
    await server.sendToolListChanged();
    await heard;
    // A re-listing would have been sent before this one, so it would show here.
    await client.listAllTools();
    expect(requests).toEqual(["tools/list", "tools/list", "prompts/list", "tools/list"]);
    await client.close();
  });

  it("reports a failed refresh to onError and lists again on the next call", async () => {
    const { server, requests, failLists } = catalogue(10);
    const errors: MCPError[] = [];
    const client = await connectToSdk(server, { cache: { tools: true }, onError: (error) => errors.push(error) });
    await client.listAllTools();
    failLists(true);
    await server.sendToolListChanged();
    await until(() => errors.length === 1);
    expect(errors[0]).toMatchObject({ code: MCP_CODES.INTERNAL_ERROR, message: expect.stringContaining("tools/list is down") });
    failLists(false);
    expect(await client.listAllTools()).toHaveLength(5);
    expect(requests).toEqual(["tools/list", "tools/list", "tools/list"]);
    await client.close();
  });

  it("drops a failed refresh quietly without onError", async () => {
    const { server, requests, failLists } = catalogue(10);
    const client = await connectToSdk(server, { cache: { tools: true } });
    failLists(true);
    await server.sendToolListChanged();
    await until(() => requests.length === 1);
    await client.ping();
    failLists(false);
    expect(await client.listAllTools()).toHaveLength(5);
    await client.close();
  });

  it("hands a throwing listener's error to onError, and keeps calling the other listeners", async () => {
    const { server } = catalogue();
    const errors: MCPError[] = [];
    const client = await connectToSdk(server, { onError: (error) => errors.push(error) });
    let calm = 0;
    client.on("toolsListChanged", () => {
      throw new Error("listener bug");
    });
    client.on("toolsListChanged", () => calm++);
    await server.sendToolListChanged();
    await until(() => calm === 1);
    expect(errors).toMatchObject([{ code: MCP_CODES.HANDLER_FAILED, message: "listener bug" }]);
    await client.close();
  });
});
