import { describe, expect, it } from "vitest";

import type { RevisionCodec } from "../codec.js";
import { validate } from "../validate.js";
import { codec as previousCodec } from "./2025-06-18.js";
import * as revision from "./2025-11-25.js";
import {
  accepts,
  clientNotification,
  clientParams,
  clientResult,
  type Difference,
  implementation,
  initializeParams,
  initializeResult,
  newlyTyped,
  type Probe,
  resourceLink,
  serverNotification,
  serverParams,
  serverResult,
  textContent,
  tool,
} from "./revisions.test-helpers.js";

const task = {
  taskId: "task-1",
  status: "input_required",
  createdAt: "2025-11-25T10:30:00Z",
  lastUpdatedAt: "2025-11-25T10:31:00Z",
  ttl: null,
};
const createdTask = { task };
const badIcons = { icons: [{ src: 5 }] };
const urlElicitation = { mode: "url", message: "Sign in", elicitationId: "e-1", url: "https://example.com/auth" };
const formElicitation = (field: object): object => ({
  message: "Pick",
  requestedSchema: { type: "object", properties: { field } },
});
const samplingRequest = (extra: object): object => ({
  messages: [{ role: "user", content: textContent }],
  maxTokens: 100,
  ...extra,
});
const toolUse = { type: "tool_use", id: "call-1", name: "search", input: { q: "mcp" } };
const toolResult = { type: "tool_result", toolUseId: "call-1", content: [textContent, resourceLink], isError: false };

const wrongIcons: Probe[] = [
  ["a tool", clientResult("tools/list"), { tools: [{ ...tool, ...badIcons }] }],
  ["a resource", clientResult("resources/list"), { resources: [{ uri: "file:///a", name: "a", ...badIcons }] }],
  ["a resource template", clientResult("resources/templates/list"), { resourceTemplates: [{ uriTemplate: "x", name: "t", ...badIcons }] }],
  ["a prompt", clientResult("prompts/list"), { prompts: [{ name: "p", ...badIcons }] }],
  ["a resource link", clientResult("tools/call"), { content: [{ ...resourceLink, ...badIcons }] }],
  ["the server implementation", clientResult("initialize"), initializeResult({ serverInfo: { ...implementation, ...badIcons } })],
  ["the client implementation", clientParams("initialize"), initializeParams({ clientInfo: { ...implementation, ...badIcons } })],
];

const wrongFields: Probe[] = [
  ["an icon theme", clientResult("tools/list"), { tools: [{ ...tool, icons: [{ src: "https://x/i.png", theme: "sepia" }] }] }],
  ["an implementation description", clientResult("initialize"), initializeResult({ serverInfo: { ...implementation, description: 5 } })],
  ["an implementation websiteUrl", clientResult("initialize"), initializeResult({ serverInfo: { ...implementation, websiteUrl: 5 } })],
  ["a tool's task support", clientResult("tools/list"), { tools: [{ ...tool, execution: { taskSupport: "sometimes" } }] }],
  ["an input schema dialect", clientResult("tools/list"), { tools: [{ ...tool, inputSchema: { type: "object", $schema: 5 } }] }],
  ["an output schema dialect", clientResult("tools/list"), { tools: [{ ...tool, outputSchema: { type: "object", $schema: 5 } }] }],
  ["a tools/call task request", clientParams("tools/call"), { name: "search", task: { ttl: 1.5 } }],
  ["a sampling task request", serverParams("sampling/createMessage"), samplingRequest({ task: { ttl: "1m" } })],
  ["sampling tools", serverParams("sampling/createMessage"), samplingRequest({ tools: [{ name: "search" }] })],
  ["a sampling tool choice", serverParams("sampling/createMessage"), samplingRequest({ toolChoice: { mode: "sometimes" } })],
  [
    "a sampling message _meta",
    serverParams("sampling/createMessage"),
    { messages: [{ role: "user", content: textContent, _meta: 1 }], maxTokens: 1 },
  ],
  ["a server tasks capability", clientResult("initialize"), initializeResult({ capabilities: { tasks: { list: true } } })],
  [
    "a client tasks capability",
    clientParams("initialize"),
    initializeParams({ capabilities: { tasks: { requests: { sampling: { createMessage: 1 } } } } }),
  ],
  ["a client sampling.tools capability", clientParams("initialize"), initializeParams({ capabilities: { sampling: { tools: true } } })],
  ["a client elicitation.url capability", clientParams("initialize"), initializeParams({ capabilities: { elicitation: { url: true } } })],
  ["a string field default", serverParams("elicitation/create"), formElicitation({ type: "string", default: 5 })],
  ["a number field default", serverParams("elicitation/create"), formElicitation({ type: "number", default: "5" })],
  ["a form elicitation mode", serverParams("elicitation/create"), { ...formElicitation({ type: "boolean" }), mode: "popup" }],
];

const differences: Difference[] = [
  ...wrongIcons.map(newlyTyped("icons")),
  ...wrongFields.map(newlyTyped()),
  [
    "icons with every field",
    clientResult("tools/list"),
    { tools: [{ ...tool, icons: [{ src: "data:image/png;base64,AA==", mimeType: "image/png", sizes: ["48x48", "any"], theme: "dark" }] }] },
    true,
    true,
  ],
  ["a URL elicitation", serverParams("elicitation/create"), urlElicitation, false, true],
  ["a URL elicitation without its id", serverParams("elicitation/create"), { ...urlElicitation, elicitationId: undefined }, false, false],
  [
    "a form elicitation naming its mode",
    serverParams("elicitation/create"),
    { ...formElicitation({ type: "boolean" }), mode: "form" },
    true,
    true,
  ],
  ["an elicitation result after a URL elicitation", serverResult("elicitation/create"), { action: "accept" }, true, true],
  ["a multi-select answer", serverResult("elicitation/create"), { action: "accept", content: { tags: ["a", "b"] } }, false, true],
  [
    "an untitled multi-select field",
    serverParams("elicitation/create"),
    formElicitation({ type: "array", minItems: 1, maxItems: 2, items: { type: "string", enum: ["a", "b"] }, default: ["a"] }),
    false,
    true,
  ],
  [
    "a titled multi-select field",
    serverParams("elicitation/create"),
    formElicitation({ type: "array", items: { anyOf: [{ const: "a", title: "A" }] } }),
    false,
    true,
  ],
  ["a multi-select field without items", serverParams("elicitation/create"), formElicitation({ type: "array" }), false, false],
  [
    "an untitled single-select field with a default",
    serverParams("elicitation/create"),
    formElicitation({ type: "string", enum: ["a"], default: "a" }),
    true,
    true,
  ],
  // 2025-06-18 reads a titled single-select as a plain string field; the options come through untyped.
  [
    "a titled single-select field",
    serverParams("elicitation/create"),
    formElicitation({ type: "string", oneOf: [{ const: "a", title: "A" }] }),
    true,
    true,
  ],
  [
    "a legacy titled enum with a default",
    serverParams("elicitation/create"),
    formElicitation({ type: "string", enum: ["a"], enumNames: ["A"], default: "a" }),
    true,
    true,
  ],
  ["a tools/call answered with a task", clientResult("tools/call"), createdTask, false, true],
  ["a sampling request answered with a task", serverResult("sampling/createMessage"), createdTask, false, true],
  ["an elicitation answered with a task", serverResult("elicitation/create"), createdTask, false, true],
  ["a created task with an unknown status", clientResult("tools/call"), { task: { ...task, status: "paused" } }, false, false],
  ["a cancellation without a request id (client)", clientNotification("notifications/cancelled"), { reason: "task" }, false, true],
  ["a cancellation without a request id (server)", serverNotification("notifications/cancelled"), {}, false, true],
  [
    "a tool use in a sampling request",
    serverParams("sampling/createMessage"),
    { messages: [{ role: "assistant", content: toolUse }], maxTokens: 1 },
    false,
    true,
  ],
  [
    "a tool result in a sampling request",
    serverParams("sampling/createMessage"),
    { messages: [{ role: "user", content: toolResult }], maxTokens: 1 },
    false,
    true,
  ],
  [
    "several blocks in one sampling message",
    serverParams("sampling/createMessage"),
    { messages: [{ role: "user", content: [textContent, toolResult] }], maxTokens: 1 },
    false,
    true,
  ],
  [
    "a tool use without input",
    serverParams("sampling/createMessage"),
    { messages: [{ role: "assistant", content: { ...toolUse, input: undefined } }], maxTokens: 1 },
    false,
    false,
  ],
  [
    "a sampling result asking for a tool",
    serverResult("sampling/createMessage"),
    { role: "assistant", content: [toolUse], model: "m", stopReason: "toolUse" },
    false,
    true,
  ],
  [
    "sampling tools and tool choice",
    serverParams("sampling/createMessage"),
    samplingRequest({ tools: [tool], toolChoice: { mode: "required" } }),
    true,
    true,
  ],
  ["a task status notification (client)", clientNotification("notifications/tasks/status"), task, false, true],
  ["a task status notification (server)", serverNotification("notifications/tasks/status"), task, false, true],
  ["an elicitation complete notification", serverNotification("notifications/elicitation/complete"), { elicitationId: "e-1" }, false, true],
  ["a server asking a client for a task", serverParams("tasks/get"), { taskId: "task-1" }, false, true],
  ["a client asking a server for a task", clientParams("tasks/get"), { taskId: "task-1" }, false, true],
];

describe("2025-11-25 against 2025-06-18", () => {
  it.each(differences)("%s", (_label, pick, value, older, newer) => {
    expect(accepts("2025-06-18", pick, value)).toBe(older);
    expect(accepts("2025-11-25", pick, value)).toBe(newer);
  });

  it("keeps both forms of a task-augmented answer intact", () => {
    const schema = revision.codec.clientRequests["tools/call"].result;
    const toolAnswer = { content: [textContent], structuredContent: { n: 1 } };
    expect(validate(schema, toolAnswer)).toEqual({ ok: true, value: toolAnswer });
    const taskAnswer = { task, _meta: { "io.modelcontextprotocol/model-immediate-response": "working on it" } };
    expect(validate(schema, taskAnswer)).toEqual({ ok: true, value: taskAnswer });
  });

  it("describes the error data of a URL elicitation requirement", () => {
    expect(validate(revision.URLElicitationRequiredErrorDataSchema, { elicitations: [urlElicitation] }).ok).toBe(true);
    expect(validate(revision.URLElicitationRequiredErrorDataSchema, { elicitations: [formElicitation({ type: "boolean" })] }).ok).toBe(
      false,
    );
  });

  it("describes the related-task _meta entry", () => {
    expect(validate(revision.RelatedTaskMetadataSchema, { taskId: "task-1" }).ok).toBe(true);
    expect(validate(revision.RelatedTaskMetadataSchema, {}).ok).toBe(false);
  });

  it("reuses 2025-06-18's schemas where nothing changed", () => {
    const older: RevisionCodec = previousCodec;
    const newer: RevisionCodec = revision.codec;
    expect(newer.batching).toBe(false);
    for (const method of ["ping", "completion/complete", "logging/setLevel", "resources/read", "resources/subscribe"]) {
      expect(newer.clientRequests[method]).toBe(older.clientRequests[method]);
    }
    expect(newer.serverRequests["roots/list"]).toBe(older.serverRequests["roots/list"]);
    expect(newer.serverNotifications["notifications/message"]).toBe(older.serverNotifications["notifications/message"]);
  });
});
