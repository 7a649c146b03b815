// The JSON Schema validator behind the outputSchema check loads on demand (src/lazy/lazy.md): nothing
// loads it before a tool with an outputSchema is listed, the first check waits for it and fails the
// same way as a check made once it is there. A test that needs the validator not loaded yet imports fresh
// modules: once loaded it stays loaded for the module graph, which mutation testing shares between files.
import { describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { CallToolResult, Tool } from "../../schemas/schemas.js";
import { ToolOutputChecker } from "./tool-output.js";
import { loadedValidator } from "./validator-loader.js";

const plain: Tool = { name: "plain", inputSchema: { type: "object" } };
const sum: Tool = {
  name: "sum",
  inputSchema: { type: "object" },
  outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
};
const wrong: CallToolResult = { content: [], structuredContent: { sum: "three" } };
const right: CallToolResult = { content: [], structuredContent: { sum: 3 } };
const settings = { options: {}, unchecked: () => undefined };

describe("the outputSchema check, with the validator loaded on demand", () => {
  it("loads no validator for a listing whose tools have no outputSchema", async () => {
    // Fresh modules: a test file run in a shared module graph (mutation testing) may find the validator loaded already.
    vi.resetModules();
    const fresh = await import("./tool-output.js");
    const loader = await import("./validator-loader.js");
    const checker = new fresh.ToolOutputChecker(() => Promise.resolve(), settings);
    checker.remember([plain]);
    expect(checker.check("plain", { content: [{ type: "text", text: "hi" }] })).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(loader.loadedValidator()).toBeUndefined();
  });

  it("waits for the validator at the first check of a tool listed first, and rejects a broken result", async () => {
    vi.resetModules();
    const fresh = await import("./tool-output.js");
    const checker = new fresh.ToolOutputChecker(() => Promise.resolve(checker.remember([sum])), settings);
    const checked = checker.check("sum", wrong);
    expect(checked).toBeInstanceOf(Promise);
    await expect(checked).rejects.toMatchObject({ code: MCP_CODES.PROTOCOL_INVALID, message: expect.stringContaining("does not match") });
  });

  it("starts loading with a listing that has an outputSchema; a check made before it is there waits for it", async () => {
    vi.resetModules();
    const fresh = await import("./tool-output.js");
    const loader = await import("./validator-loader.js");
    expect(loader.loadedValidator()).toBeUndefined();
    const checker = new fresh.ToolOutputChecker(() => Promise.resolve(), settings);
    checker.remember([sum]);
    const waiting = checker.check("sum", wrong);
    expect(waiting).toBeInstanceOf(Promise);
    await expect(waiting).rejects.toMatchObject({ code: MCP_CODES.PROTOCOL_INVALID });
    expect(checker.check("sum", right)).toBeUndefined();
    expect(loader.loadedValidator()).toBeDefined();
  });

  it("checks at once, with no promise, once the validator is there", async () => {
    const checker = new ToolOutputChecker(() => Promise.resolve(), settings);
    checker.remember([sum]);
    await vi.waitFor(() => expect(loadedValidator()).toBeDefined());
    expect(checker.check("sum", right)).toBeUndefined();
    expect(() => checker.check("sum", wrong)).toThrow(/does not match its outputSchema/);
    expect(() => checker.check("sum", { content: [] })).toThrow(/returned no structuredContent/);
  });

  it("reports a validator that failed to load at the check that needs it, not at the listing", async () => {
    vi.resetModules();
    vi.doMock("../../json-schema/index.js", () => {
      throw new Error("the validator's chunk is offline");
    });
    try {
      const fresh = await import("./tool-output.js");
      const checker = new fresh.ToolOutputChecker(() => Promise.resolve(), settings);
      checker.remember([sum]);
      await new Promise((resolve) => setTimeout(resolve, 0));
      const failed = await Promise.resolve(checker.check("sum", right)).then(
        () => undefined,
        (error: unknown) => error as Error & { cause?: unknown },
      );
      // vitest wraps the factory's error in its own, with the factory's as the cause.
      expect(failed).toBeInstanceOf(Error);
      expect(String(failed?.message) + String((failed?.cause as Error | undefined)?.message)).toMatch(/chunk is offline/);
    } finally {
      vi.doUnmock("../../json-schema/index.js");
      vi.resetModules();
    }
  });
});
