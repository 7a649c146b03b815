import { describe, expect, it } from "vitest";
import { deriveCapabilities } from "./capabilities.js";

const createMessage = () => ({ role: "assistant" as const, content: { type: "text" as const, text: "" }, model: "m" });
const form = () => ({ action: "cancel" as const });

describe("deriveCapabilities", () => {
  it("writes the handlers given as each revision has them", () => {
    const sources = {
      extra: { experimental: { x: {} } },
      roots: true,
      sampling: { createMessage, tools: true, context: true },
      elicitation: { form, url: form, applyDefaults: true },
      tasks: true,
    };
    expect(deriveCapabilities("2024-11-05", sources)).toEqual({ experimental: { x: {} }, roots: { listChanged: true }, sampling: {} });
    expect(deriveCapabilities("2025-06-18", sources)).toEqual({
      experimental: { x: {} },
      roots: { listChanged: true },
      sampling: {},
      elicitation: {},
    });
    const perMode = {
      experimental: { x: {} },
      roots: { listChanged: true },
      sampling: { tools: {}, context: {} },
      elicitation: { form: { applyDefaults: true }, url: {} },
    };
    expect(deriveCapabilities("2025-11-25", sources)).toEqual(perMode);
    // The stateless era declares them per request, in the newest revision's terms, with the tasks extension.
    expect(deriveCapabilities("2026-07-28", sources)).toEqual({ ...perMode, extensions: { "io.modelcontextprotocol/tasks": {} } });
    expect(
      deriveCapabilities("2026-07-28", { extra: undefined, roots: false, sampling: undefined, elicitation: { url: form }, tasks: false }),
    ).toEqual({ elicitation: { url: {} } });
  });

  it("adds the tasks extension to the extensions given, and leaves them as they are without it", () => {
    const extra = { extensions: { "com.example/x": { on: true } } };
    const none = { roots: false, sampling: undefined, elicitation: undefined };
    expect(deriveCapabilities("2026-07-28", { ...none, extra, tasks: true })).toEqual({
      extensions: { "com.example/x": { on: true }, "io.modelcontextprotocol/tasks": {} },
    });
    expect(deriveCapabilities("2026-07-28", { ...none, extra, tasks: false })).toEqual(extra);
  });
});
