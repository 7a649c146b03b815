// mount()'s refusals and failures: prefixes and separators that are no name segment, a child that is
// the parent or shares its feed, a name the parent has (at mount: nothing stays; later: reported),
// a child whose lists fail, resource changes the parent cannot name, and an unmount while a sync runs.
import { describe, expect, it } from "vitest";
import type { MCPError } from "../../error-codes/mcp-error.js";
import { MCPServer } from "../mcp-server/mcp-server.js";
import { mount } from "./mount.js";
import { notesServer, weatherServer } from "./mount.test-helpers.js";

const parentServer = (onProtocolError?: (error: MCPError) => void) =>
  new MCPServer({ name: "parent", version: "1.0.0" }, onProtocolError ? { telemetry: null, onProtocolError } : { telemetry: null });
const has = (server: MCPServer, name: string) => server.registrationOf("tools/call", { name }) !== undefined;

/** A child whose template list fails while `failing.now` is true. */
function failingChild(failing: { now: boolean }): MCPServer {
  const child = notesServer();
  child.resourceTemplate(
    "page",
    "memo://pages/{n}",
    { list: () => (failing.now ? Promise.reject(new Error("the list is down")) : []) },
    (uri) => ({ contents: [{ uri, text: "page" }] }),
  );
  return child;
}

describe("mount refusals", () => {
  it("refuses a prefix or separator that is no name segment", async () => {
    const parent = parentServer();
    for (const prefix of ["", "a/b", "x".repeat(65), "a b"])
      await expect(mount(parent, prefix, notesServer())).rejects.toMatchObject({ code: "MCP.INVALID_PARAMS" });
    await expect(mount(parent, "n", notesServer(), { separator: "/" })).rejects.toMatchObject({
      code: "MCP.INVALID_PARAMS",
      message: expect.stringMatching(/separator/),
    });
    expect(has(parent, "n_add")).toBe(false);
  });

  it("refuses the parent itself, and a child that shares the parent's change feed", async () => {
    const parent = parentServer();
    parent.tool("own", {}, () => ({ content: [] }));
    await expect(mount(parent, "self", parent)).rejects.toMatchObject({ code: "MCP.INVALID_PARAMS" });
    const sharing = new MCPServer({ name: "sharing", version: "1.0.0" }, { telemetry: null, changeFeed: parent.changes });
    await expect(mount(parent, "s", sharing)).rejects.toMatchObject({ code: "MCP.INVALID_PARAMS" });
    expect(has(parent, "self_own")).toBe(false);
  });

  it("fails with the parent's duplicate error when a name is taken, leaving nothing of the mount", async () => {
    const parent = parentServer();
    parent.tool("n_forecast", {}, () => ({ content: [] }));
    await expect(mount(parent, "n", notesServer())).rejects.toMatchObject({ code: "MCP.DUPLICATE_REGISTRATION" });
    expect(has(parent, "n_add")).toBe(false);
    expect(parent.registrationOf("resources/read", { uri: "memo://n/today" })).toBeUndefined();
    expect(has(parent, "n_forecast")).toBe(true);
  });

  it("fails when the child cannot list, leaving nothing of the mount", async () => {
    const parent = parentServer();
    await expect(mount(parent, "n", failingChild({ now: true }))).rejects.toThrow("the list is down");
    expect(has(parent, "n_add")).toBe(false);
  });
});

describe("mount failures after mounting", () => {
  it("reports a name the parent took meanwhile, and registers the rest", async () => {
    const parent = parentServer();
    const child = notesServer();
    const errors: MCPError[] = [];
    const handle = await mount(parent, "n", child, { onError: (error) => errors.push(error) });
    parent.tool("n_late", {}, () => ({ content: [] }));
    child.tool("late", {}, () => ({ content: [] }));
    child.tool("later", {}, () => ({ content: [] }));
    await handle.synced();
    expect(errors.map((error) => error.code)).toEqual(["MCP.DUPLICATE_REGISTRATION"]);
    expect(has(parent, "n_later")).toBe(true);
  });

  it("reports a failing list to the parent's onProtocolError by default, and keeps what it had", async () => {
    const reported: MCPError[] = [];
    const parent = parentServer((error) => reported.push(error));
    const failing = { now: false };
    const child = failingChild(failing);
    const handle = await mount(parent, "n", child);
    failing.now = true;
    child.tool("late", {}, () => ({ content: [] }));
    await handle.synced();
    expect(reported.map((error) => error.message)).toEqual(["the list is down"]);
    expect([has(parent, "n_add"), has(parent, "n_late")]).toEqual([true, false]);
  });

  it("passes on resource changes it can name, and reports a parent feed that fails", async () => {
    const parent = parentServer();
    const heard: unknown[] = [];
    parent.changes.subscribe((change) => heard.push(change));
    const errors: MCPError[] = [];
    const child = weatherServer();
    await mount(parent, "w", child, { onError: (error) => errors.push(error) });
    await child.markResourceUpdated("urn:isbn:1");
    await child.markResourceUpdated("file:///README.md");
    expect(heard.filter((change) => (change as { kind: string }).kind === "resource")).toEqual([
      { kind: "resource", uri: "file://w//README.md" },
    ]);
    parent.changes.subscribe(() => {
      throw new Error("listener down");
    });
    await child.markResourceUpdated("file:///README.md");
    await Promise.resolve();
    expect(errors.map((error) => error.message)).toEqual(["A change listener failed"]);
  });

  it("registers nothing from a sync that was running when the mount was undone", async () => {
    const parent = parentServer();
    const child = notesServer();
    const handle = await mount(parent, "n", child);
    child.tool("late", {}, () => ({ content: [] }));
    // The child's change reaches the mount in a microtask; its sync starts after this one.
    await Promise.resolve();
    handle.unmount();
    await handle.synced();
    expect([has(parent, "n_add"), has(parent, "n_late")]).toEqual([false, false]);
  });
});
