// A form elicitation answered before the JSON Schema validator is there (the client loads it with the
// connection when it has a form handler: src/lazy/lazy.md) waits for it, and checks the same way.
import { describe, expect, it, vi } from "vitest";
import type { ElicitRequestFormParams } from "../../schemas/schemas.js";
import type { ServerRequestContext } from "./mcp-client.types.js";

const params: ElicitRequestFormParams = {
  mode: "form",
  message: "Your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string", default: "Ada" } }, required: ["name"] },
};

describe("a form elicitation before the validator is loaded", () => {
  it("waits for the validator, fills defaults and checks the answer against the requested schema", async () => {
    vi.resetModules();
    const { answerElicitation } = await import("./elicitation.js");
    const { loadedValidator } = await import("./validator-loader.js");
    expect(loadedValidator()).toBeUndefined();
    const form = vi.fn(() => ({ action: "accept" as const, content: {} }));
    const deps = { options: { form }, declared: { form: { applyDefaults: true } }, onUrlAccepted: () => undefined };
    await expect(answerElicitation(params, {} as ServerRequestContext, deps)).resolves.toEqual({
      action: "accept",
      content: { name: "Ada" },
    });
    expect(form).toHaveBeenCalledOnce();
    const wrong = {
      options: { form: () => ({ action: "accept" as const, content: { name: 7 } }) },
      declared: { form: {} },
      onUrlAccepted: () => undefined,
    };
    await expect(answerElicitation(params, {} as ServerRequestContext, wrong)).rejects.toThrow(/does not match the requested schema/);
  });
});
