import { describe, expect, it } from "vitest";
import { deriveCapabilities } from "./capabilities.js";

const createMessage = () => ({ role: "assistant" as const, content: { type: "text" as const, text: "" }, model: "m" });
const form = () => ({ action: "cancel" as const });

describe("deriveCapabilities", () => {
  it("writes the handlers given as each revision has them", () => {
    const sources = { extra: { experimental: { x: {} } }, roots: true, sampling: { createMessage, tools: true, context: true }, elicitation: { form, url: form, applyDefaults: true } };
    expect(deriveCapabilities("2024-11-05", sources)).toEqual({ experimental: { x: {} }, roots: { listChanged: true }, sampling: {} });
    expect(deriveCapabilities("2025-06-18", sources)).toEqual({ experimental: { x: {} }, roots: { listChanged: true }, sampling: {}, elicitation: {} });
    const perMode = { experimental: { x: {} }, roots: { listChanged: true }, sampling: { tools: {}, context: {} }, elicitation: { form: { applyDefaults: true }, url: {} } };
    expect(deriveCapabilities("2025-11-25", sources)).toEqual(perMode);
    // The stateless era declares them per request, in the newest revision's terms.
    expect(deriveCapabilities("2026-07-28", sources)).toEqual(perMode);
    expect(deriveCapabilities("2026-07-28", { extra: undefined, roots: false, sampling: undefined, elicitation: { url: form } })).toEqual({ elicitation: { url: {} } });
  });
});
