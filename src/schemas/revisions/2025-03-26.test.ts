import { describe, expect, it } from "vitest";

import { validate } from "../validate.js";
import * as revision from "./2025-03-26.js";
import {
  accepts,
  audioContent,
  clientNotification,
  clientResult,
  type Difference,
  initializeResult,
  serverNotification,
  serverParams,
  serverResult,
  textContent,
  tool,
} from "./revisions.test-helpers.js";

const differences: Difference[] = [
  ["audio content in a tool result", clientResult("tools/call"), { content: [audioContent] }, false, true],
  ["audio content in a prompt message", clientResult("prompts/get"), { messages: [{ role: "user", content: audioContent }] }, false, true],
  [
    "audio content in a sampling request",
    serverParams("sampling/createMessage"),
    { messages: [{ role: "user", content: audioContent }], maxTokens: 10 },
    false,
    true,
  ],
  [
    "audio content in a sampling result",
    serverResult("sampling/createMessage"),
    { role: "assistant", content: audioContent, model: "m" },
    false,
    true,
  ],
  ["audio content without mimeType", clientResult("tools/call"), { content: [{ type: "audio", data: "x" }] }, false, false],
  [
    "tool annotations",
    clientResult("tools/list"),
    {
      tools: [
        {
          ...tool,
          annotations: { title: "Search", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
        },
      ],
    },
    true,
    true,
  ],
  [
    "tool annotations of the wrong type",
    clientResult("tools/list"),
    { tools: [{ ...tool, annotations: { readOnlyHint: "yes" } }] },
    true,
    false,
  ],
  ["a completions capability", clientResult("initialize"), initializeResult({ capabilities: { completions: {} } }), true, true],
  [
    "a completions capability that is not an object",
    clientResult("initialize"),
    initializeResult({ capabilities: { completions: true } }),
    true,
    false,
  ],
  ["a progress message (client)", clientNotification("notifications/progress"), { progressToken: 1, progress: 1, message: 5 }, true, false],
  ["a progress message (server)", serverNotification("notifications/progress"), { progressToken: 1, progress: 1, message: 5 }, true, false],
];

describe("2025-03-26 against 2024-11-05", () => {
  it.each(differences)("%s", (_label, pick, value, older, newer) => {
    expect(accepts("2024-11-05", pick, value)).toBe(older);
    expect(accepts("2025-03-26", pick, value)).toBe(newer);
  });

  it("allows batching, unlike 2024-11-05", () => {
    expect(revision.codec.batching).toBe(true);
  });

  it("keeps a progress message and mixed content in the parsed value", () => {
    const progress = { progressToken: "t", progress: 2, total: 4, message: "halfway" };
    expect(validate(revision.ProgressNotificationParamsSchema, progress)).toEqual({ ok: true, value: progress });
    const result = { content: [textContent, audioContent], isError: false };
    expect(validate(revision.CallToolResultSchema, result)).toEqual({ ok: true, value: result });
  });
});
