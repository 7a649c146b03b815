// The downgrade, row by row of the table in src/schemas/schemas.md ("What each revision receives").
// (`toEqual` takes a key set to undefined for an absent one: `{ ...x, icons: undefined }` is x without icons.)
import { describe, expect, it } from "vitest";

import { METHODS, NOTIFICATIONS, PROTOCOL_VERSIONS, type ProtocolVersion } from "../constants/index.js";
import {
  NOT_IN_REVISION,
  encodeCapabilitiesFor,
  encodeNotificationFor,
  encodeResultFor,
  encodeServerRequestFor,
  revisionHas,
} from "./downgrade.js";

type Row = readonly [version: ProtocolVersion, input: unknown, expected: unknown];

const icons = [{ src: "https://example.com/i.png" }];
const meta = { "example.com/k": 1 };

describe("initialize", () => {
  const capabilities = { logging: {}, tools: { listChanged: true }, completions: {}, tasks: { list: {} }, experimental: { x: {} } };
  const serverInfo = { name: "srv", version: "1", title: "Server", icons, description: "d", websiteUrl: "https://example.com" };
  const result = { protocolVersion: "v", capabilities, serverInfo, instructions: "i" };
  const withCompletions = { logging: {}, tools: { listChanged: true }, completions: {}, experimental: { x: {} } };
  it.each<Row>([
    ["2025-06-18", result, { ...result, capabilities: withCompletions, serverInfo: { name: "srv", version: "1", title: "Server" } }],
    ["2025-03-26", result, { ...result, capabilities: withCompletions, serverInfo: { name: "srv", version: "1" } }],
    [
      "2024-11-05",
      result,
      {
        ...result,
        capabilities: { logging: {}, tools: { listChanged: true }, experimental: { x: {} } },
        serverInfo: { name: "srv", version: "1" },
      },
    ],
  ])("%s: capabilities and server info the revision defines", (version, input, expected) => {
    expect(encodeResultFor(version, METHODS.initialize, input)).toEqual(expected);
  });

  it("passes a result with nothing to leave out as itself", () => {
    const plain = { protocolVersion: "v", capabilities: { tools: {} }, serverInfo: { name: "srv", version: "1" } };
    expect(encodeResultFor("2024-11-05", METHODS.initialize, plain)).toBe(plain);
  });

  it("encodeCapabilitiesFor leaves out completions before 2025-03-26 and tasks before 2025-11-25", () => {
    expect(PROTOCOL_VERSIONS.map((version) => Object.keys(encodeCapabilitiesFor(version, capabilities)))).toEqual([
      ["logging", "tools", "experimental"],
      ["logging", "tools", "completions", "experimental"],
      ["logging", "tools", "completions", "experimental"],
      ["logging", "tools", "completions", "tasks", "experimental"],
    ]);
  });
});

describe("tools/list", () => {
  const inputSchema = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", additionalProperties: false };
  const described = { name: "t", title: "Tool", description: "d", inputSchema, outputSchema: { type: "object" } };
  const tool = { ...described, annotations: { readOnlyHint: true }, icons, execution: { taskSupport: "optional" }, _meta: meta };
  it.each<Row>([
    [
      "2025-06-18",
      tool,
      {
        name: "t",
        title: "Tool",
        description: "d",
        inputSchema,
        outputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        _meta: meta,
      },
    ],
    // 2025-03-26 has no tool title, but its annotations carry one.
    ["2025-03-26", tool, { name: "t", description: "d", inputSchema, annotations: { readOnlyHint: true, title: "Tool" } }],
    ["2025-03-26", { ...tool, annotations: { title: "Own" } }, { name: "t", description: "d", inputSchema, annotations: { title: "Own" } }],
    ["2025-03-26", { name: "t", title: "Tool", inputSchema }, { name: "t", inputSchema, annotations: { title: "Tool" } }],
    [
      "2025-03-26",
      { name: "t", inputSchema, annotations: { destructiveHint: false } },
      { name: "t", inputSchema, annotations: { destructiveHint: false } },
    ],
    ["2024-11-05", tool, { name: "t", description: "d", inputSchema }],
  ])("%s: %j", (version, input, expected) => {
    expect(encodeResultFor(version, METHODS.toolsList, { tools: [input], nextCursor: "c" })).toEqual({
      tools: [expected],
      nextCursor: "c",
    });
  });

  it("copies only the tools that change", () => {
    const plain = { name: "p", inputSchema: { type: "object" } };
    const list = { tools: [plain, tool] };
    const encoded = encodeResultFor("2024-11-05", METHODS.toolsList, list) as { tools: unknown[] };
    expect(encoded.tools[0]).toBe(plain);
    expect(encodeResultFor("2024-11-05", METHODS.toolsList, { tools: [plain] })).toEqual({ tools: [plain] });
    const unchanged = { tools: [plain] };
    expect(encodeResultFor("2024-11-05", METHODS.toolsList, unchanged)).toBe(unchanged);
  });
});

describe("tools/call", () => {
  const text = { type: "text", text: "hi", annotations: { audience: ["user"], lastModified: "2025-01-01T00:00:00Z" }, _meta: meta };
  const image = { type: "image", data: "AA==", mimeType: "image/png" };
  const audio = { type: "audio", data: "AA==", mimeType: "audio/wav", annotations: { priority: 1 } };
  const link = {
    type: "resource_link",
    uri: "file:///a.txt",
    name: "a",
    title: "A file",
    description: "notes",
    mimeType: "text/plain",
    icons,
    annotations: { priority: 0.5 },
  };
  const embedded = { type: "resource", resource: { uri: "file:///b", text: "b", _meta: meta }, _meta: meta };
  const content = [text, image, audio, link, embedded];
  const structuredContent = { answer: 42 };
  const result = { content, structuredContent, isError: false, _meta: meta };

  const textBefore0618 = { type: "text", text: "hi", annotations: { audience: ["user"] } };
  const linkAsText = { type: "text", text: 'Resource "A file" at file:///a.txt (text/plain): notes', annotations: { priority: 0.5 } };
  const embeddedBefore0618 = { type: "resource", resource: { uri: "file:///b", text: "b" } };
  const json = { type: "text", text: '{"answer":42}' };
  const audioAsText = {
    type: "text",
    text: "Audio (audio/wav) left out: protocol revision 2024-11-05 cannot carry audio",
    annotations: { priority: 1 },
  };

  it.each<Row>([
    ["2025-06-18", result, { ...result, content: [text, image, audio, { ...link, icons: undefined }, embedded] }],
    ["2025-03-26", result, { content: [textBefore0618, image, audio, linkAsText, embeddedBefore0618, json], isError: false, _meta: meta }],
    [
      "2024-11-05",
      result,
      { content: [textBefore0618, image, audioAsText, linkAsText, embeddedBefore0618, json], isError: false, _meta: meta },
    ],
  ])("%s: blocks, annotations, structured content", (version, input, expected) => {
    expect(encodeResultFor(version, METHODS.toolsCall, input)).toEqual(expected);
  });

  it("names a link by its name when it has no title, and leaves out what it does not have", () => {
    const bare = { content: [{ type: "resource_link", uri: "u:1", name: "one" }] };
    expect(encodeResultFor("2025-03-26", METHODS.toolsCall, bare)).toEqual({ content: [{ type: "text", text: 'Resource "one" at u:1' }] });
  });

  it("adds no second copy of structured content already in the content, and none of structured content left undefined", () => {
    const mirrored = { content: [json], structuredContent };
    expect(encodeResultFor("2024-11-05", METHODS.toolsCall, mirrored)).toEqual({ content: [json] });
    expect(encodeResultFor("2024-11-05", METHODS.toolsCall, { content: [image], structuredContent: undefined })).toEqual({
      content: [image],
    });
    expect(encodeResultFor("2024-11-05", METHODS.toolsCall, { structuredContent })).toEqual({ content: [json] });
  });

  it("passes an unchanged result as itself (no copy)", () => {
    const plain = { content: [image, { type: "text", text: "t" }], isError: true };
    for (const version of PROTOCOL_VERSIONS) expect(encodeResultFor(version, METHODS.toolsCall, plain)).toBe(plain);
  });
});

describe("resources", () => {
  const listed = { uri: "u:1", name: "one", title: "One", description: "d", mimeType: "text/plain", size: 3 };
  const resource = { ...listed, annotations: { audience: ["assistant"], lastModified: "x" }, icons, _meta: meta };
  const template = { uriTemplate: "u:{id}", name: "ones", title: "Ones", annotations: { priority: 1 }, icons, _meta: meta };
  it.each<Row>([
    ["2025-06-18", resource, { ...resource, icons: undefined }],
    // Before 2025-06-18 a resource's name is what a user sees: the title takes its place.
    [
      "2025-03-26",
      resource,
      { uri: "u:1", name: "One", description: "d", mimeType: "text/plain", size: 3, annotations: { audience: ["assistant"] } },
    ],
    [
      "2024-11-05",
      resource,
      { uri: "u:1", name: "One", description: "d", mimeType: "text/plain", size: 3, annotations: { audience: ["assistant"] } },
    ],
    ["2024-11-05", { uri: "u:2", name: "two", _meta: meta }, { uri: "u:2", name: "two" }],
  ])("resources/list on %s", (version, input, expected) => {
    expect(encodeResultFor(version, METHODS.resourcesList, { resources: [input] })).toEqual({ resources: [expected] });
  });

  it.each<Row>([
    ["2025-06-18", template, { uriTemplate: "u:{id}", name: "ones", title: "Ones", annotations: { priority: 1 }, _meta: meta }],
    ["2024-11-05", template, { uriTemplate: "u:{id}", name: "Ones", annotations: { priority: 1 } }],
  ])("resources/templates/list on %s", (version, input, expected) => {
    expect(encodeResultFor(version, METHODS.resourcesTemplatesList, { resourceTemplates: [input] })).toEqual({
      resourceTemplates: [expected],
    });
  });

  it("resources/read: contents lose their _meta before 2025-06-18", () => {
    const read = {
      contents: [
        { uri: "u:1", text: "t", _meta: meta },
        { uri: "u:2", blob: "AA==" },
      ],
    };
    expect(encodeResultFor("2025-06-18", METHODS.resourcesRead, read)).toBe(read);
    expect(encodeResultFor("2025-03-26", METHODS.resourcesRead, read)).toEqual({
      contents: [
        { uri: "u:1", text: "t" },
        { uri: "u:2", blob: "AA==" },
      ],
    });
  });
});

describe("prompts", () => {
  const prompt = {
    name: "p",
    title: "P",
    description: "d",
    arguments: [{ name: "a", title: "A", required: true }, { name: "b" }],
    icons,
    _meta: meta,
  };
  it.each<Row>([
    [
      "2025-06-18",
      prompt,
      { name: "p", title: "P", description: "d", arguments: [{ name: "a", title: "A", required: true }, { name: "b" }], _meta: meta },
    ],
    ["2025-03-26", prompt, { name: "p", description: "d", arguments: [{ name: "a", required: true }, { name: "b" }] }],
    ["2024-11-05", { name: "q", title: "Q" }, { name: "q" }],
  ])("prompts/list on %s", (version, input, expected) => {
    expect(encodeResultFor(version, METHODS.promptsList, { prompts: [input] })).toEqual({ prompts: [expected] });
  });

  it("prompts/get: each message keeps its one block, in a form the revision has", () => {
    const messages = [
      { role: "user", content: { type: "resource_link", uri: "u:1", name: "one" } },
      { role: "assistant", content: { type: "audio", data: "AA==", mimeType: "audio/mpeg" } },
      { role: "user", content: { type: "text", text: "plain" } },
    ];
    const encoded = encodeResultFor("2024-11-05", METHODS.promptsGet, { description: "d", messages }) as { messages: unknown[] };
    expect(encoded).toEqual({
      description: "d",
      messages: [
        { role: "user", content: { type: "text", text: 'Resource "one" at u:1' } },
        {
          role: "assistant",
          content: { type: "text", text: "Audio (audio/mpeg) left out: protocol revision 2024-11-05 cannot carry audio" },
        },
        { role: "user", content: { type: "text", text: "plain" } },
      ],
    });
    expect(encoded.messages[2]).toBe(messages[2]);
    expect((encodeResultFor("2025-03-26", METHODS.promptsGet, { messages }) as { messages: unknown[] }).messages[1]).toBe(messages[1]);
  });
});

describe("methods and values the downgrade leaves alone", () => {
  it.each(PROTOCOL_VERSIONS)("%s: completion/complete, ping and unknown methods come back as themselves", (version) => {
    const completion = { completion: { values: ["a"], total: 1, hasMore: false } };
    expect(encodeResultFor(version, METHODS.completionComplete, completion)).toBe(completion);
    const empty = {};
    expect(encodeResultFor(version, METHODS.ping, empty)).toBe(empty);
    const custom = { title: "kept" };
    expect(encodeResultFor(version, "x/custom", custom)).toBe(custom);
  });

  it("passes what is not the expected shape as it came", () => {
    for (const odd of [undefined, null, "text", 3, []]) expect(encodeResultFor("2024-11-05", METHODS.toolsList, odd)).toBe(odd);
    const oddLists = { tools: "none", resources: [1, null], content: [null] };
    expect(encodeResultFor("2024-11-05", METHODS.toolsList, oddLists)).toBe(oddLists);
    expect(encodeResultFor("2024-11-05", METHODS.resourcesList, oddLists)).toBe(oddLists);
    expect(encodeResultFor("2024-11-05", METHODS.toolsCall, oddLists)).toBe(oddLists);
    const oddMessages = { messages: [{ role: "user", content: "text" }] };
    expect(encodeResultFor("2024-11-05", METHODS.promptsGet, oddMessages)).toBe(oddMessages);
    const oddInit = { capabilities: null, serverInfo: "srv" };
    expect(encodeResultFor("2024-11-05", METHODS.initialize, oddInit)).toBe(oddInit);
    const oddAnnotations = { resources: [{ uri: "u", name: "n", annotations: "none" }] };
    expect(encodeResultFor("2024-11-05", METHODS.resourcesList, oddAnnotations)).toBe(oddAnnotations);
  });
});

describe("notifications", () => {
  it("progress: the message from 2025-03-26 on", () => {
    const progress = { progressToken: 1, progress: 1, total: 2, message: "half" };
    expect(encodeNotificationFor("2024-11-05", NOTIFICATIONS.progress, progress)).toEqual({ progressToken: 1, progress: 1, total: 2 });
    expect(encodeNotificationFor("2025-03-26", NOTIFICATIONS.progress, progress)).toBe(progress);
  });

  it.each([
    [NOTIFICATIONS.elicitationComplete, { elicitationId: "e" }, "2025-06-18"],
    [NOTIFICATIONS.tasksStatus, { taskId: "t", status: "working", createdAt: "c", lastUpdatedAt: "l", ttl: null }, "2025-06-18"],
    [NOTIFICATIONS.cancelled, { reason: "task gone" }, "2025-06-18"],
  ] as const)("%s: not sent in a revision without it (%j)", (method, params, older) => {
    expect(encodeNotificationFor(older, method, params)).toBe(NOT_IN_REVISION);
    expect(encodeNotificationFor("2025-11-25", method, params)).toBe(params);
  });

  it.each(PROTOCOL_VERSIONS)("%s: logging, resource updates, list changes and named cancellations go as they are", (version) => {
    for (const [method, params] of [
      [NOTIFICATIONS.message, { level: "info", data: { x: 1 } }],
      [NOTIFICATIONS.resourcesUpdated, { uri: "u:1" }],
      [NOTIFICATIONS.toolsListChanged, undefined],
      [NOTIFICATIONS.cancelled, { requestId: 3, reason: "r" }],
    ] as const) {
      expect(encodeNotificationFor(version, method, params)).toBe(params);
    }
  });
});

/** What a revision before 2025-11-25 gets of the sampling params below, given its form of the first two blocks. */
function sampledBefore20251125(audio: unknown, text: unknown): object {
  return {
    messages: [
      { role: "user", content: text },
      { role: "user", content: audio },
      { role: "assistant", content: { type: "text", text: 'Tool call calc (c1) with input {"a":1}' } },
      { role: "user", content: { type: "text", text: 'Tool call c1 returned [{"type":"text","text":"2"}]' } },
      { role: "user", content: { type: "text", text: 'Tool call c1 failed {"v":2}' } },
      { role: "user", content: { type: "text", text: "plain" } },
    ],
    maxTokens: 5,
    _meta: { progressToken: 1 },
  };
}

describe("sampling/createMessage", () => {
  const toolUse = { type: "tool_use", id: "c1", name: "calc", input: { a: 1 } };
  const toolResult = { type: "tool_result", toolUseId: "c1", content: [{ type: "text", text: "2" }], isError: false };
  const params = {
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "2?", _meta: meta },
          { type: "audio", data: "AA==", mimeType: "audio/wav" },
        ],
        _meta: meta,
      },
      { role: "assistant", content: toolUse },
      { role: "user", content: [toolResult, { ...toolResult, isError: true, structuredContent: { v: 2 } }] },
      { role: "user", content: { type: "text", text: "plain" } },
    ],
    maxTokens: 5,
    tools: [{ name: "calc", inputSchema: { type: "object" } }],
    toolChoice: { mode: "auto" },
    task: { ttl: 1000 },
    _meta: { progressToken: 1 },
  };
  const audio = { type: "audio", data: "AA==", mimeType: "audio/wav" };
  it.each<Row>([
    ["2025-06-18", params, sampledBefore20251125(audio, { type: "text", text: "2?", _meta: meta })],
    ["2025-03-26", params, sampledBefore20251125(audio, { type: "text", text: "2?" })],
    [
      "2024-11-05",
      params,
      sampledBefore20251125(
        { type: "text", text: "Audio (audio/wav) left out: protocol revision 2024-11-05 cannot carry audio" },
        { type: "text", text: "2?" },
      ),
    ],
  ])("%s: no tools offered, one block per message", (version, input, expected) => {
    expect(encodeServerRequestFor(version, METHODS.samplingCreateMessage, input)).toEqual(expected);
  });

  it("copies only the messages that change, and passes unchanged params as themselves", () => {
    const plain = { role: "user", content: { type: "text", text: "hi" } };
    const unchanged = { messages: [plain], maxTokens: 1 };
    expect(encodeServerRequestFor("2024-11-05", METHODS.samplingCreateMessage, unchanged)).toBe(unchanged);
    const mixed = encodeServerRequestFor("2024-11-05", METHODS.samplingCreateMessage, {
      messages: [plain, { role: "user", content: toolUse }],
      maxTokens: 1,
    }) as { messages: unknown[] };
    expect(mixed.messages[0]).toBe(plain);
    const odd = { messages: [null, { role: "user", content: [null] }, { role: "user" }], maxTokens: 1 };
    expect(encodeServerRequestFor("2024-11-05", METHODS.samplingCreateMessage, odd)).toEqual({
      messages: [null, { role: "user", content: null }, { role: "user" }],
      maxTokens: 1,
    });
    const noMessages = { maxTokens: 1 };
    expect(encodeServerRequestFor("2024-11-05", METHODS.samplingCreateMessage, noMessages)).toBe(noMessages);
  });
});

describe("elicitation/create", () => {
  const form = {
    mode: "form",
    message: "Who?",
    task: { ttl: 1 },
    requestedSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        name: { type: "string", default: "Ada" },
        age: { type: "integer", minimum: 0, default: 36 },
        ok: { type: "boolean", default: true },
        color: {
          type: "string",
          title: "Colour",
          oneOf: [
            { const: "r", title: "Red" },
            { const: "g", title: "Green" },
          ],
          default: "r",
        },
        size: { type: "string", enum: ["s", "m"], enumNames: ["Small", "Medium"], default: "s" },
        shape: { type: "string", enum: ["o", "x"] },
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, default: ["a"] },
      },
      required: ["name", "tags"],
    },
  };

  it("2025-06-18: form mode in its own terms; a multi-select is left out, and no longer required", () => {
    expect(encodeServerRequestFor("2025-06-18", METHODS.elicitationCreate, form)).toEqual({
      message: "Who?",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string" },
          age: { type: "integer", minimum: 0 },
          ok: { type: "boolean", default: true },
          color: { type: "string", title: "Colour", enum: ["r", "g"], enumNames: ["Red", "Green"] },
          size: { type: "string", enum: ["s", "m"], enumNames: ["Small", "Medium"] },
          shape: { type: "string", enum: ["o", "x"] },
        },
        required: ["name"],
      },
    });
  });

  it("2025-06-18: an unchanged form is sent as it is; odd shapes pass", () => {
    const plain = { message: "m", requestedSchema: { type: "object", properties: { note: { type: "string" }, odd: 3 } } };
    expect(encodeServerRequestFor("2025-06-18", METHODS.elicitationCreate, plain)).toBe(plain);
    const noSchema = { message: "m" };
    expect(encodeServerRequestFor("2025-06-18", METHODS.elicitationCreate, noSchema)).toBe(noSchema);
    const noProperties = { message: "m", requestedSchema: { type: "object" } };
    expect(encodeServerRequestFor("2025-06-18", METHODS.elicitationCreate, noProperties)).toBe(noProperties);
    const noRequired = {
      message: "m",
      requestedSchema: { type: "object", properties: { many: { type: "array" }, pick: { type: "string", oneOf: [null] } } },
    };
    const pick = { type: "string", enum: [], enumNames: [] };
    expect(encodeServerRequestFor("2025-06-18", METHODS.elicitationCreate, noRequired)).toEqual({
      message: "m",
      requestedSchema: { type: "object", properties: { pick } },
    });
  });

  it("is not sent in URL mode before 2025-11-25, nor at all before 2025-06-18", () => {
    const url = { mode: "url", message: "m", elicitationId: "e", url: "https://example.com" };
    expect(encodeServerRequestFor("2025-06-18", METHODS.elicitationCreate, url)).toBe(NOT_IN_REVISION);
    expect(encodeServerRequestFor("2025-11-25", METHODS.elicitationCreate, url)).toBe(url);
    expect(encodeServerRequestFor("2025-03-26", METHODS.elicitationCreate, form)).toBe(NOT_IN_REVISION);
    expect(encodeServerRequestFor("2025-11-25", METHODS.elicitationCreate, form)).toBe(form);
  });
});

describe("other server requests", () => {
  it.each(PROTOCOL_VERSIONS)("%s: roots/list and ping as they are; tasks only in 2025-11-25", (version) => {
    expect(encodeServerRequestFor(version, METHODS.rootsList, undefined)).toBeUndefined();
    const ping = { _meta: { progressToken: 1 } };
    expect(encodeServerRequestFor(version, METHODS.ping, ping)).toBe(ping);
    const task = { taskId: "t" };
    expect(encodeServerRequestFor(version, METHODS.tasksGet, task)).toBe(version === "2025-11-25" ? task : NOT_IN_REVISION);
  });
});

describe("revisionHas", () => {
  it("answers from the table of first revisions", () => {
    expect(
      PROTOCOL_VERSIONS.map((version) => [
        revisionHas(version, "progressMessage"),
        revisionHas(version, "titles"),
        revisionHas(version, "samplingTools"),
      ]),
    ).toEqual([
      [false, false, false],
      [true, false, false],
      [true, true, false],
      [true, true, true],
    ]);
  });
});
