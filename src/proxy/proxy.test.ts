// proxy() in memory for the four era pairs (upstream session/stateless × downstream session/stateless):
// the upstream's entries listed and answered through the proxy; progress, log and cancel passing
// through; the upstream's questions answered by the downstream client; errors kept; list changes
// followed; a closed upstream answered with a clear error while the proxy keeps serving.
import { describe, expect, it } from "vitest";
import type { MCPError } from "../error-codes/mcp-error.js";
import { chain, names, nextEvent, PAIRS, textOf } from "./proxy.test-helpers.js";

describe.each(PAIRS)("proxy, upstream %s era, downstream %s era", (up, down) => {
  it("lists and answers the upstream's tools, prompts, resources and templates, with completions", async () => {
    const { downstream, handle } = await chain(up, down);
    expect(downstream.era).toBe(down);
    expect(handle.server.info.name).toBe("up");
    expect(names(await downstream.listAllTools())).toEqual(["echo", "report", "wait", "ask", "refuse", "fail"]);
    expect((await downstream.listAllTools())[0]).toEqual({
      name: "echo",
      description: "Echoes",
      inputSchema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
    });
    expect(textOf(await downstream.callTool("echo", { word: "hi" }))).toBe(`hi (${up})`);
    expect(await downstream.listAllPrompts()).toEqual([
      { name: "greet", title: "Greeting", arguments: [{ name: "language", required: true }] },
    ]);
    expect((await downstream.getPrompt("greet", { language: "fr" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Greet in fr" } },
    ]);
    expect((await downstream.complete({ type: "ref/prompt", name: "greet" }, { name: "language", value: "e" })).completion.values).toEqual([
      "en",
      "es",
    ]);
    expect((await downstream.listAllResources()).map((resource) => resource.uri)).toEqual(["memo://one"]);
    expect((await downstream.readResource("memo://one")).contents).toEqual([{ uri: "memo://one", text: "one memo" }]);
    expect(await downstream.listAllResourceTemplates()).toEqual([{ name: "book", uriTemplate: "library://books/{id}" }]);
    expect((await downstream.readResource("library://books/7")).contents).toEqual([{ uri: "library://books/7", text: "book 7" }]);
    expect(
      (await downstream.complete({ type: "ref/resource", uri: "library://books/{id}" }, { name: "id", value: "1" })).completion.values,
    ).toEqual(["1", "12"]);
    await handle.close();
  });

  it("passes progress and log messages to the caller, and the structured result back", async () => {
    const { downstream, handle } = await chain(up, down);
    await downstream.setLoggingLevel("info");
    const logged = nextEvent((listener) => downstream.on("log", listener));
    const progress: unknown[] = [];
    const result = await downstream.callTool(
      "report",
      {},
      { onProgress: ({ progress: done, total, message }) => progress.push([done, total, message]) },
    );
    expect(result.structuredContent).toEqual({ done: true });
    expect(progress).toEqual([[1, 2, "half way"]]);
    expect(await logged).toEqual({ level: "warning", data: { step: 1 }, logger: "up" });
    await handle.close();
  });

  it("cancels the upstream call when the downstream caller aborts", async () => {
    const { downstream, upstream, handle } = await chain(up, down);
    const controller = new AbortController();
    const call = downstream.callTool("wait", {}, { signal: controller.signal });
    await upstream.waiting.promise;
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: "MCP.REQUEST_CANCELLED" });
    await upstream.cancelled.promise;
    await handle.close();
  });

  it("has the upstream's questions answered by the downstream client's handlers", async () => {
    const { downstream, handle } = await chain(up, down);
    const result = await downstream.callTool("ask", {});
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe("Ada / Hi from the model / file:///work");
    await handle.close();
  });

  it("keeps the upstream's JSON-RPC errors and isError results", async () => {
    const { downstream, handle } = await chain(up, down);
    const refused = (await downstream.callTool("refuse", {}).catch((error: unknown) => error)) as MCPError;
    expect(refused).toMatchObject({ wireCode: -32050, message: "upstream says no", data: { reason: "quota" } });
    const failed = await downstream.callTool("fail", {});
    expect(failed).toMatchObject({ content: [{ type: "text", text: "it went wrong" }], isError: true });
    // Nothing of the upstream's era: a stateless downstream sees only what the proxy's server adds.
    expect(Object.keys(failed).toSorted()).toEqual(
      down === "session" ? ["content", "isError"] : ["_meta", "content", "isError", "resultType"],
    );
    await handle.close();
  });

  it("follows the upstream's list changes, which the downstream client hears", async () => {
    const { downstream, upstream, handle } = await chain(up, down);
    const changed = nextEvent((listener) => downstream.on("toolsListChanged", listener));
    await downstream.listAllTools();
    upstream.server.tool("added", {}, () => ({ content: [{ type: "text", text: "new" }] }));
    await changed;
    await handle.synced();
    expect(names(await downstream.listAllTools())).toContain("added");
    expect(textOf(await downstream.callTool("added", {}))).toBe("new");
    await handle.close();
  });

  it("answers calls to a closed upstream with an error naming it, and keeps serving", async () => {
    const { downstream, upstream, upServerEnd, handle } = await chain(up, down);
    const pending = downstream.callTool("wait", {}).catch((error: unknown) => error);
    await upstream.waiting.promise;
    await upServerEnd.close();
    const expected = {
      message: expect.stringContaining("The upstream server up is closed (MCP.TRANSPORT_CLOSED)"),
      data: { code: "MCP.TRANSPORT_CLOSED", upstream: "up" },
    };
    expect(await pending).toMatchObject(expected);
    await expect(downstream.callTool("echo", { word: "x" })).rejects.toMatchObject(expected);
    await expect(downstream.readResource("memo://one")).rejects.toMatchObject(expected);
    await expect(downstream.ping()).resolves.toBeUndefined();
    await handle.close();
  });
});
