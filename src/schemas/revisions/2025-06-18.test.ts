import { describe, expect, it } from "vitest";

import { validate } from "../validate.js";
import * as revision from "./2025-06-18.js";
import {
  accepts,
  clientParams,
  clientResult,
  type Difference,
  implementation,
  initializeParams,
  initializeResult,
  newlyTyped,
  type Probe,
  resourceLink,
  serverParams,
  serverResult,
  textContent,
  tool,
} from "./revisions.test-helpers.js";

const resource = { uri: "file:///a.txt", name: "a" };
const template = { uriTemplate: "file:///{path}", name: "files" };
const prompt = { name: "greet" };
const image = { type: "image", data: "AA==", mimeType: "image/png" };
const audio = { type: "audio", data: "AA==", mimeType: "audio/wav" };
const embedded = { type: "resource", resource: { uri: "file:///a", text: "x" } };
const completeParams = (extra: object): object => ({
  ref: { type: "ref/prompt", name: "greet" },
  argument: { name: "who", value: "A" },
  ...extra,
});

/** Places `field` on a data type of each kind, reached through the method that carries it. */
function onEveryDataType(field: object): Probe[] {
  return [
    ["a tool", clientResult("tools/list"), { tools: [{ ...tool, ...field }] }],
    ["a resource", clientResult("resources/list"), { resources: [{ ...resource, ...field }] }],
    ["a resource template", clientResult("resources/templates/list"), { resourceTemplates: [{ ...template, ...field }] }],
    ["a prompt", clientResult("prompts/list"), { prompts: [{ ...prompt, ...field }] }],
  ];
}

const wrongTitles: Probe[] = [
  ...onEveryDataType({ title: 5 }),
  ["a prompt argument", clientResult("prompts/list"), { prompts: [{ ...prompt, arguments: [{ name: "who", title: 5 }] }] }],
  ["the server implementation", clientResult("initialize"), initializeResult({ serverInfo: { ...implementation, title: 5 } })],
  ["the client implementation", clientParams("initialize"), initializeParams({ clientInfo: { ...implementation, title: 5 } })],
  ["a prompt reference", clientParams("completion/complete"), completeParams({ ref: { type: "ref/prompt", name: "p", title: 5 } })],
];

const wrongMetas: Probe[] = [
  ...onEveryDataType({ _meta: "x" }),
  ["text content", clientResult("tools/call"), { content: [{ ...textContent, _meta: "x" }] }],
  ["image content", clientResult("tools/call"), { content: [{ ...image, _meta: "x" }] }],
  ["audio content", clientResult("tools/call"), { content: [{ ...audio, _meta: "x" }] }],
  ["an embedded resource", clientResult("tools/call"), { content: [{ ...embedded, _meta: "x" }] }],
  ["resource contents", clientResult("resources/read"), { contents: [{ uri: "file:///a", text: "x", _meta: "x" }] }],
  ["a root", serverResult("roots/list"), { roots: [{ uri: "file:///r", _meta: "x" }] }],
];

const differences: Difference[] = [
  ...wrongTitles.map(newlyTyped("a title")),
  ...wrongMetas.map(newlyTyped("_meta")),
  ["a resource link in a tool result", clientResult("tools/call"), { content: [resourceLink] }, false, true],
  [
    "a resource link in a prompt message",
    clientResult("prompts/get"),
    { messages: [{ role: "user", content: resourceLink }] },
    false,
    true,
  ],
  [
    "a resource link in a sampling message",
    serverParams("sampling/createMessage"),
    { messages: [{ role: "user", content: resourceLink }], maxTokens: 1 },
    false,
    false,
  ],
  ["structured tool output", clientResult("tools/call"), { content: [], structuredContent: { temperature: 21 } }, true, true],
  ["structured tool output that is not an object", clientResult("tools/call"), { content: [], structuredContent: "21" }, true, false],
  ["a tool output schema", clientResult("tools/list"), { tools: [{ ...tool, outputSchema: { type: "object" } }] }, true, true],
  [
    "a tool output schema that is not an object schema",
    clientResult("tools/list"),
    { tools: [{ ...tool, outputSchema: { type: "array" } }] },
    true,
    false,
  ],
  [
    "a lastModified annotation of the wrong type",
    clientResult("resources/list"),
    { resources: [{ ...resource, annotations: { lastModified: 5 } }] },
    true,
    false,
  ],
  [
    "an elicitation capability that is not an object",
    clientParams("initialize"),
    initializeParams({ capabilities: { elicitation: true } }),
    true,
    false,
  ],
  ["completion context", clientParams("completion/complete"), completeParams({ context: { arguments: { lang: "en" } } }), true, true],
  [
    "completion context with a non-string argument",
    clientParams("completion/complete"),
    completeParams({ context: { arguments: { n: 1 } } }),
    true,
    false,
  ],
  [
    "an elicitation request",
    serverParams("elicitation/create"),
    { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
    false,
    true,
  ],
  ["an elicitation result", serverResult("elicitation/create"), { action: "cancel" }, false, true],
];

describe("2025-06-18 against 2025-03-26", () => {
  it.each(differences)("%s", (_label, pick, value, older, newer) => {
    expect(accepts("2025-03-26", pick, value)).toBe(older);
    expect(accepts("2025-06-18", pick, value)).toBe(newer);
  });

  it("drops batching again", () => {
    expect(revision.codec.batching).toBe(false);
  });

  it("keeps titles, _meta and structured output in the parsed value", () => {
    const result = {
      content: [{ ...resourceLink, title: "A", _meta: { k: 1 }, annotations: { lastModified: "2025-01-12T15:00:58Z" } }],
      structuredContent: { temperature: 21 },
    };
    expect(validate(revision.CallToolResultSchema, result)).toEqual({ ok: true, value: result });
  });

  it("reads the completion reference under its new name", () => {
    expect(revision.ResourceTemplateReferenceSchema).toBe(revision.ResourceReferenceSchema);
    expect(validate(revision.CompleteRequestParamsSchema, completeParams({ ref: { type: "ref/resource", uri: "x" } })).ok).toBe(true);
  });
});
