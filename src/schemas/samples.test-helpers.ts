// Wire samples for every method and notification: the valid ones hold in every revision that has the
// method, the invalid ones fail in all of them, each with the issue line it is refused with (the same
// in every revision, or per revision where the line lists what the revision allows). Other revision
// differences live in the revision tests.
import type { AnyProtocolVersion, ProtocolVersion } from "../constants/index.js";

/** A labelled value: the label names the test case. */
export type Sample = readonly [label: string, value: unknown];

/** The issue line of a refusal, as `validate` reports it, per revision where revisions differ. */
export type Issues = string | RevisionIssues;
export type RevisionIssues = Readonly<Partial<Record<AnyProtocolVersion, string>>>;

/** A labelled invalid value and the issue line it is refused with. */
export type Rejected = readonly [label: string, value: unknown, issues: Issues];

export interface SampleSet {
  readonly valid: readonly Sample[];
  readonly invalid: readonly Rejected[];
}

export interface RequestSamples {
  readonly params: SampleSet;
  readonly result: SampleSet;
}

const LOGGING_LEVELS = '"debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency"';
const TASK_STATUSES = '"working" | "input_required" | "completed" | "failed" | "cancelled"';
const ELICITATION_ACTIONS = '"accept" | "decline" | "cancel"';
/** The content types of prompt messages and tool results, as each revision's union lists them. */
const MESSAGE_CONTENT_TYPES: Readonly<Record<ProtocolVersion, string>> = {
  "2024-11-05": '"text" | "image" | "resource"',
  "2025-03-26": '"text" | "image" | "audio" | "resource"',
  "2025-06-18": '"text" | "image" | "audio" | "resource_link" | "resource"',
  "2025-11-25": '"text" | "image" | "audio" | "resource_link" | "resource"',
};
/** The content types of sampling messages, as each revision's union lists them. */
const SAMPLING_CONTENT_TYPES: Readonly<Record<ProtocolVersion, string>> = {
  "2024-11-05": '"text" | "image"',
  "2025-03-26": '"text" | "image" | "audio"',
  "2025-06-18": '"text" | "image" | "audio"',
  "2025-11-25": '"text" | "image" | "audio" | "tool_use" | "tool_result"',
};

function contentTypes(path: string, types: Readonly<Record<ProtocolVersion, string>>): RevisionIssues {
  return Object.fromEntries(Object.entries(types).map(([version, listed]) => [version, `${path}: expected one of ${listed}`]));
}

const implementation = { name: "example", version: "1.0.0" };
const textContent = { type: "text", text: "hello" };
const imageContent = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" };
const embeddedResource = { type: "resource", resource: { uri: "file:///notes.md", text: "# Notes" } };
const task = {
  taskId: "task-1",
  status: "working",
  statusMessage: "running",
  createdAt: "2025-11-25T10:30:00Z",
  lastUpdatedAt: "2025-11-25T10:40:00Z",
  ttl: 60000,
  pollInterval: 5000,
};
const userMessage = { role: "user", content: textContent };

const noParams: SampleSet = {
  valid: [
    ["absent", undefined],
    ["empty", {}],
    ["with a progress token", { _meta: { progressToken: "token-1" } }],
  ],
  invalid: [
    ["not an object", "ping", "expected object, received string"],
    ["_meta not an object", { _meta: 5 }, "_meta: expected object, received number"],
    [
      "progress token of the wrong type",
      { _meta: { progressToken: true } },
      "_meta.progressToken: expected string | number, received boolean",
    ],
    ["progress token not an integer", { _meta: { progressToken: 1.5 } }, "_meta.progressToken: expected string | integer, received number"],
  ],
};

const paginatedParams: SampleSet = {
  valid: [
    ["absent", undefined],
    ["empty", {}],
    ["with a cursor", { cursor: "page-2" }],
  ],
  invalid: [
    ["cursor of the wrong type", { cursor: 5 }, "cursor: expected string, received number"],
    ["not an object", [], "expected object, received array"],
  ],
};

const emptyResult: SampleSet = {
  valid: [
    ["empty", {}],
    ["with _meta", { _meta: { trace: "t" } }],
  ],
  invalid: [
    ["not an object", [], "expected object, received array"],
    ["_meta not an object", { _meta: "x" }, "_meta: expected object, received string"],
  ],
};

const uriParams: SampleSet = {
  valid: [["a uri", { uri: "file:///notes.md" }]],
  invalid: [
    ["missing uri", {}, "uri: is required"],
    ["uri of the wrong type", { uri: 5 }, "uri: expected string, received number"],
    ["absent", undefined, "is required"],
  ],
};

const taskIdParams: SampleSet = {
  valid: [["a task id", { taskId: "task-1" }]],
  invalid: [
    ["missing taskId", {}, "taskId: is required"],
    ["taskId of the wrong type", { taskId: 1 }, "taskId: expected string, received number"],
  ],
};

const taskResult: SampleSet = {
  valid: [
    ["a full task", task],
    ["an unlimited ttl", { ...task, ttl: null, pollInterval: undefined }],
  ],
  invalid: [
    ["unknown status", { ...task, status: "paused" }, `status: expected ${TASK_STATUSES}`],
    ["missing ttl", { ...task, ttl: undefined }, "ttl: is required"],
    ["ttl not an integer", { ...task, ttl: 1.5 }, "ttl: expected integer, received number"],
    ["pollInterval of the wrong type", { ...task, pollInterval: "5s" }, "pollInterval: expected number, received string"],
  ],
};

const listChanged: SampleSet = {
  valid: [
    ["absent", undefined],
    ["empty", {}],
    ["with _meta", { _meta: { at: 1 } }],
  ],
  invalid: [
    ["not an object", "changed", "expected object, received string"],
    ["_meta not an object", { _meta: 5 }, "_meta: expected object, received number"],
  ],
};

export const REQUEST_SAMPLES: Readonly<Record<string, RequestSamples>> = {
  ping: { params: noParams, result: emptyResult },
  initialize: {
    params: {
      valid: [
        ["minimal", { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: implementation }],
        [
          "all capabilities",
          {
            protocolVersion: "2025-11-25",
            capabilities: { experimental: { custom: {} }, roots: { listChanged: true }, sampling: {} },
            clientInfo: implementation,
          },
        ],
      ],
      invalid: [
        ["absent", undefined, "is required"],
        ["missing protocolVersion", { capabilities: {}, clientInfo: implementation }, "protocolVersion: is required"],
        [
          "clientInfo without version",
          { protocolVersion: "x", capabilities: {}, clientInfo: { name: "c" } },
          "clientInfo.version: is required",
        ],
        [
          "roots.listChanged of the wrong type",
          { protocolVersion: "x", capabilities: { roots: { listChanged: "yes" } }, clientInfo: implementation },
          "capabilities.roots.listChanged: expected boolean, received string",
        ],
      ],
    },
    result: {
      valid: [
        [
          "all capabilities",
          {
            protocolVersion: "2024-11-05",
            capabilities: {
              logging: {},
              prompts: { listChanged: true },
              resources: { subscribe: true, listChanged: false },
              tools: {},
            },
            serverInfo: implementation,
            instructions: "Use the tools.",
          },
        ],
      ],
      invalid: [
        ["missing serverInfo", { protocolVersion: "x", capabilities: {} }, "serverInfo: is required"],
        [
          "resources.subscribe of the wrong type",
          { protocolVersion: "x", capabilities: { resources: { subscribe: "yes" } }, serverInfo: implementation },
          "capabilities.resources.subscribe: expected boolean, received string",
        ],
        [
          "instructions of the wrong type",
          { protocolVersion: "x", capabilities: {}, serverInfo: implementation, instructions: 5 },
          "instructions: expected string, received number",
        ],
      ],
    },
  },
  "completion/complete": {
    params: {
      valid: [
        ["a prompt reference", { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "Al" } }],
        ["a resource reference", { ref: { type: "ref/resource", uri: "file:///{path}" }, argument: { name: "path", value: "a" } }],
      ],
      invalid: [
        ["missing argument", { ref: { type: "ref/prompt", name: "greet" } }, "argument: is required"],
        [
          "unknown reference type",
          { ref: { type: "ref/tool", name: "t" }, argument: { name: "a", value: "b" } },
          'ref.type: expected one of "ref/prompt" | "ref/resource"',
        ],
        [
          "argument value of the wrong type",
          { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: 1 } },
          "argument.value: expected string, received number",
        ],
      ],
    },
    result: {
      valid: [["values with total", { completion: { values: ["Alice", "Alan"], total: 10, hasMore: true } }]],
      invalid: [
        ["missing completion", {}, "completion: is required"],
        [
          "more than 100 values",
          { completion: { values: Array.from({ length: 101 }, (_, index) => `v${index}`) } },
          "completion.values: length must be at most 100",
        ],
        ["total not an integer", { completion: { values: [], total: 1.5 } }, "completion.total: expected integer, received number"],
        ["a value of the wrong type", { completion: { values: [1] } }, "completion.values[0]: expected string, received number"],
      ],
    },
  },
  "logging/setLevel": {
    params: {
      valid: [["a level", { level: "warning" }]],
      invalid: [
        ["unknown level", { level: "verbose" }, `level: expected ${LOGGING_LEVELS}`],
        ["missing level", {}, `level: is required, expected ${LOGGING_LEVELS}`],
      ],
    },
    result: emptyResult,
  },
  "prompts/list": {
    params: paginatedParams,
    result: {
      valid: [
        [
          "a prompt with arguments",
          { prompts: [{ name: "greet", description: "d", arguments: [{ name: "who", required: true }] }], nextCursor: "n" },
        ],
      ],
      invalid: [
        ["missing prompts", {}, "prompts: is required"],
        ["a prompt without a name", { prompts: [{ description: "d" }] }, "prompts[0].name: is required"],
        [
          "argument.required of the wrong type",
          { prompts: [{ name: "p", arguments: [{ name: "a", required: "yes" }] }] },
          "prompts[0].arguments[0].required: expected boolean, received string",
        ],
        ["nextCursor of the wrong type", { prompts: [], nextCursor: 5 }, "nextCursor: expected string, received number"],
      ],
    },
  },
  "prompts/get": {
    params: {
      valid: [
        ["with arguments", { name: "greet", arguments: { who: "Al" } }],
        ["without arguments", { name: "greet" }],
      ],
      invalid: [
        ["missing name", { arguments: {} }, "name: is required"],
        ["an argument that is not a string", { name: "greet", arguments: { who: 1 } }, "arguments.who: expected string, received number"],
      ],
    },
    result: {
      valid: [
        [
          "text, image and embedded resource messages",
          {
            description: "d",
            messages: [userMessage, { role: "assistant", content: imageContent }, { role: "user", content: embeddedResource }],
          },
        ],
      ],
      invalid: [
        ["missing messages", { description: "d" }, "messages: is required"],
        ["unknown role", { messages: [{ role: "system", content: textContent }] }, 'messages[0].role: expected "user" | "assistant"'],
        [
          "unknown content type",
          { messages: [{ role: "user", content: { type: "video", data: "x" } }] },
          contentTypes("messages[0].content.type", MESSAGE_CONTENT_TYPES),
        ],
        ["text content without text", { messages: [{ role: "user", content: { type: "text" } }] }, "messages[0].content.text: is required"],
      ],
    },
  },
  "resources/list": {
    params: paginatedParams,
    result: {
      valid: [
        [
          "an annotated resource",
          {
            resources: [
              {
                uri: "file:///a.txt",
                name: "a",
                mimeType: "text/plain",
                size: 10,
                annotations: { audience: ["user"], priority: 0.5 },
              },
            ],
          },
        ],
      ],
      invalid: [
        ["missing resources", {}, "resources: is required"],
        ["a resource without a uri", { resources: [{ name: "a" }] }, "resources[0].uri: is required"],
        [
          "size not an integer",
          { resources: [{ uri: "u", name: "a", size: 1.5 }] },
          "resources[0].size: expected integer, received number",
        ],
        [
          "priority above 1",
          { resources: [{ uri: "u", name: "a", annotations: { priority: 2 } }] },
          "resources[0].annotations.priority: must be at most 1",
        ],
        [
          "unknown audience",
          { resources: [{ uri: "u", name: "a", annotations: { audience: ["bot"] } }] },
          'resources[0].annotations.audience[0]: expected "user" | "assistant"',
        ],
      ],
    },
  },
  "resources/templates/list": {
    params: paginatedParams,
    result: {
      valid: [["a template", { resourceTemplates: [{ uriTemplate: "file:///{path}", name: "files" }] }]],
      invalid: [
        ["a template without uriTemplate", { resourceTemplates: [{ name: "files" }] }, "resourceTemplates[0].uriTemplate: is required"],
        ["missing resourceTemplates", {}, "resourceTemplates: is required"],
      ],
    },
  },
  "resources/read": {
    params: uriParams,
    result: {
      valid: [
        [
          "text and blob contents",
          {
            contents: [
              { uri: "file:///a", text: "x" },
              { uri: "file:///b", blob: "AAE=", mimeType: "application/pdf" },
            ],
          },
        ],
      ],
      invalid: [
        ["contents without text or blob", { contents: [{ uri: "file:///a" }] }, "contents[0].text: is required"],
        ["missing contents", {}, "contents: is required"],
      ],
    },
  },
  "resources/subscribe": { params: uriParams, result: emptyResult },
  "resources/unsubscribe": { params: uriParams, result: emptyResult },
  "tools/list": {
    params: paginatedParams,
    result: {
      valid: [
        [
          "a tool",
          {
            tools: [
              {
                name: "add",
                description: "Adds",
                inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] },
              },
            ],
          },
        ],
      ],
      invalid: [
        ["a tool without inputSchema", { tools: [{ name: "add" }] }, "tools[0].inputSchema: is required"],
        [
          "an inputSchema that is not an object schema",
          { tools: [{ name: "add", inputSchema: { type: "array" } }] },
          'tools[0].inputSchema.type: expected "object"',
        ],
        [
          "a property schema that is not an object",
          { tools: [{ name: "add", inputSchema: { type: "object", properties: { a: "number" } } }] },
          "tools[0].inputSchema.properties.a: expected object, received string",
        ],
        ["missing tools", {}, "tools: is required"],
      ],
    },
  },
  "tools/call": {
    params: {
      valid: [
        ["with arguments", { name: "add", arguments: { a: 1 } }],
        ["without arguments", { name: "add" }],
      ],
      invalid: [
        ["missing name", { arguments: {} }, "name: is required"],
        ["arguments not an object", { name: "add", arguments: "a=1" }, "arguments: expected record, received string"],
      ],
    },
    result: {
      valid: [
        ["text content", { content: [textContent], isError: false }],
        ["image and embedded resource", { content: [imageContent, embeddedResource] }],
      ],
      invalid: [
        ["missing content", { isError: true }, "content: is required"],
        ["isError of the wrong type", { content: [], isError: "no" }, "isError: expected boolean, received string"],
        ["unknown content type", { content: [{ type: "video" }] }, contentTypes("content[0].type", MESSAGE_CONTENT_TYPES)],
      ],
    },
  },
  "sampling/createMessage": {
    params: {
      valid: [
        ["minimal", { messages: [userMessage], maxTokens: 100 }],
        [
          "every option",
          {
            messages: [userMessage, { role: "assistant", content: imageContent }],
            maxTokens: 100,
            modelPreferences: { hints: [{ name: "sonnet" }], costPriority: 0.3, speedPriority: 0, intelligencePriority: 1 },
            systemPrompt: "Be brief.",
            includeContext: "thisServer",
            temperature: 0.7,
            stopSequences: ["\n"],
            metadata: { provider: "x" },
          },
        ],
      ],
      invalid: [
        ["missing maxTokens", { messages: [userMessage] }, "maxTokens: is required"],
        ["maxTokens not an integer", { messages: [userMessage], maxTokens: 1.5 }, "maxTokens: expected integer, received number"],
        [
          "unknown includeContext",
          { messages: [userMessage], maxTokens: 1, includeContext: "everything" },
          'includeContext: expected "none" | "thisServer" | "allServers"',
        ],
        [
          "costPriority above 1",
          { messages: [userMessage], maxTokens: 1, modelPreferences: { costPriority: 1.5 } },
          "modelPreferences.costPriority: must be at most 1",
        ],
        [
          "embedded resource content",
          { messages: [{ role: "user", content: embeddedResource }], maxTokens: 1 },
          contentTypes("messages[0].content.type", SAMPLING_CONTENT_TYPES),
        ],
      ],
    },
    result: {
      valid: [["a text answer", { role: "assistant", content: textContent, model: "m-1", stopReason: "endTurn" }]],
      invalid: [
        ["missing model", { role: "assistant", content: textContent }, "model: is required"],
        ["unknown role", { role: "system", content: textContent, model: "m" }, 'role: expected "user" | "assistant"'],
        [
          "stopReason of the wrong type",
          { role: "assistant", content: textContent, model: "m", stopReason: 5 },
          "stopReason: expected string, received number",
        ],
      ],
    },
  },
  "roots/list": {
    params: {
      valid: [
        ["absent", undefined],
        ["empty", {}],
      ],
      invalid: [
        ["not an object", "roots", "expected object, received string"],
        ["_meta not an object", { _meta: 1 }, "_meta: expected object, received number"],
      ],
    },
    result: {
      valid: [["a root", { roots: [{ uri: "file:///home/project", name: "project" }] }]],
      invalid: [
        ["missing roots", {}, "roots: is required"],
        ["a root without a uri", { roots: [{ name: "project" }] }, "roots[0].uri: is required"],
      ],
    },
  },
  "elicitation/create": {
    params: {
      valid: [
        [
          "a form with every primitive field",
          {
            message: "Who are you?",
            requestedSchema: {
              type: "object",
              properties: {
                email: { type: "string", title: "Email", minLength: 3, maxLength: 99, format: "email" },
                age: { type: "integer", minimum: 0, maximum: 150 },
                subscribe: { type: "boolean", default: true },
                color: { type: "string", enum: ["r", "g"], enumNames: ["Red", "Green"] },
              },
              required: ["email"],
            },
          },
        ],
      ],
      invalid: [
        ["missing message", { requestedSchema: { type: "object", properties: {} } }, "message: is required"],
        [
          "a requested schema that is not an object schema",
          { message: "m", requestedSchema: { type: "array", properties: {} } },
          'requestedSchema.type: expected "object"',
        ],
        [
          "a nested object field",
          { message: "m", requestedSchema: { type: "object", properties: { address: { type: "object" } } } },
          'requestedSchema.properties.address.type: expected "string"',
        ],
        [
          "minLength not an integer",
          { message: "m", requestedSchema: { type: "object", properties: { a: { type: "string", minLength: 1.5 } } } },
          "requestedSchema.properties.a.minLength: expected integer, received number",
        ],
      ],
    },
    result: {
      valid: [
        ["accepted with content", { action: "accept", content: { email: "a@b.c", age: 3, subscribe: true } }],
        ["declined", { action: "decline" }],
      ],
      invalid: [
        ["unknown action", { action: "maybe" }, `action: expected ${ELICITATION_ACTIONS}`],
        ["missing action", {}, `action: is required, expected ${ELICITATION_ACTIONS}`],
        [
          "a content value that is an object",
          { action: "accept", content: { email: {} } },
          {
            "2025-06-18": "content.email: expected string | number | boolean, received object",
            "2025-11-25": "content.email: expected string | number | boolean | array, received object",
          },
        ],
      ],
    },
  },
  "tasks/get": { params: taskIdParams, result: taskResult },
  "tasks/cancel": { params: taskIdParams, result: taskResult },
  "tasks/result": {
    params: taskIdParams,
    result: {
      valid: [["a tool result", { content: [textContent], _meta: { "io.modelcontextprotocol/related-task": { taskId: "task-1" } } }]],
      invalid: [
        ["a string", "done", "expected object, received string"],
        ["_meta a number", { _meta: 1 }, "_meta: expected object, received number"],
      ],
    },
  },
  "tasks/list": {
    params: paginatedParams,
    result: {
      valid: [["a page of tasks", { tasks: [task], nextCursor: "n" }]],
      invalid: [
        ["missing tasks", {}, "tasks: is required"],
        ["a task with an unknown status", { tasks: [{ ...task, status: "paused" }] }, `tasks[0].status: expected ${TASK_STATUSES}`],
      ],
    },
  },
};

export const NOTIFICATION_SAMPLES: Readonly<Record<string, SampleSet>> = {
  "notifications/cancelled": {
    valid: [
      ["string id and reason", { requestId: "abc", reason: "user aborted" }],
      ["integer id", { requestId: 7 }],
    ],
    invalid: [
      ["requestId not an integer", { requestId: 1.5 }, "requestId: expected string | integer, received number"],
      ["reason of the wrong type", { requestId: 1, reason: 5 }, "reason: expected string, received number"],
    ],
  },
  "notifications/progress": {
    valid: [
      ["string token with total", { progressToken: "t", progress: 1, total: 10 }],
      ["integer token, fractional progress", { progressToken: 3, progress: 0.5 }],
    ],
    invalid: [
      ["missing progress", { progressToken: "t" }, "progress: is required"],
      ["progress of the wrong type", { progressToken: "t", progress: "1" }, "progress: expected number, received string"],
      ["null token", { progressToken: null, progress: 1 }, "progressToken: expected string | number, received null"],
    ],
  },
  "notifications/initialized": listChanged,
  "notifications/roots/list_changed": listChanged,
  "notifications/resources/list_changed": listChanged,
  "notifications/tools/list_changed": listChanged,
  "notifications/prompts/list_changed": listChanged,
  "notifications/message": {
    valid: [
      ["structured data", { level: "info", logger: "db", data: { rows: 3 } }],
      ["string data", { level: "emergency", data: "down" }],
    ],
    invalid: [
      ["missing data", { level: "info" }, "data: is required"],
      ["unknown level", { level: "fatal", data: "x" }, `level: expected ${LOGGING_LEVELS}`],
      ["logger of the wrong type", { level: "info", logger: 5, data: "x" }, "logger: expected string, received number"],
    ],
  },
  "notifications/resources/updated": {
    valid: [["a uri", { uri: "file:///a" }]],
    invalid: [
      ["missing uri", {}, "uri: is required"],
      ["uri of the wrong type", { uri: 5 }, "uri: expected string, received number"],
    ],
  },
  "notifications/elicitation/complete": {
    valid: [["an elicitation id", { elicitationId: "e-1" }]],
    invalid: [
      ["missing elicitationId", {}, "elicitationId: is required"],
      ["elicitationId of the wrong type", { elicitationId: 5 }, "elicitationId: expected string, received number"],
    ],
  },
  "notifications/tasks/status": taskResult,
};
