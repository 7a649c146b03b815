// Wire samples for every method and notification: the valid ones hold in every revision that has the
// method, the invalid ones fail in all of them. Revision differences live in the revision tests.

/** A labelled value: the label names the test case. */
export type Sample = readonly [label: string, value: unknown];

export interface SampleSet {
  readonly valid: readonly Sample[];
  readonly invalid: readonly Sample[];
}

export interface RequestSamples {
  readonly params: SampleSet;
  readonly result: SampleSet;
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
    ["not an object", "ping"],
    ["_meta not an object", { _meta: 5 }],
    ["progress token of the wrong type", { _meta: { progressToken: true } }],
    ["progress token not an integer", { _meta: { progressToken: 1.5 } }],
  ],
};

const paginatedParams: SampleSet = {
  valid: [
    ["absent", undefined],
    ["empty", {}],
    ["with a cursor", { cursor: "page-2" }],
  ],
  invalid: [
    ["cursor of the wrong type", { cursor: 5 }],
    ["not an object", []],
  ],
};

const emptyResult: SampleSet = {
  valid: [
    ["empty", {}],
    ["with _meta", { _meta: { trace: "t" } }],
  ],
  invalid: [
    ["not an object", []],
    ["_meta not an object", { _meta: "x" }],
  ],
};

const uriParams: SampleSet = {
  valid: [["a uri", { uri: "file:///notes.md" }]],
  invalid: [
    ["missing uri", {}],
    ["uri of the wrong type", { uri: 5 }],
    ["absent", undefined],
  ],
};

const taskIdParams: SampleSet = {
  valid: [["a task id", { taskId: "task-1" }]],
  invalid: [
    ["missing taskId", {}],
    ["taskId of the wrong type", { taskId: 1 }],
  ],
};

const taskResult: SampleSet = {
  valid: [
    ["a full task", task],
    ["an unlimited ttl", { ...task, ttl: null, pollInterval: undefined }],
  ],
  invalid: [
    ["unknown status", { ...task, status: "paused" }],
    ["missing ttl", { ...task, ttl: undefined }],
    ["ttl not an integer", { ...task, ttl: 1.5 }],
    ["pollInterval of the wrong type", { ...task, pollInterval: "5s" }],
  ],
};

const listChanged: SampleSet = {
  valid: [
    ["absent", undefined],
    ["empty", {}],
    ["with _meta", { _meta: { at: 1 } }],
  ],
  invalid: [
    ["not an object", "changed"],
    ["_meta not an object", { _meta: 5 }],
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
        ["absent", undefined],
        ["missing protocolVersion", { capabilities: {}, clientInfo: implementation }],
        ["clientInfo without version", { protocolVersion: "x", capabilities: {}, clientInfo: { name: "c" } }],
        [
          "roots.listChanged of the wrong type",
          { protocolVersion: "x", capabilities: { roots: { listChanged: "yes" } }, clientInfo: implementation },
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
        ["missing serverInfo", { protocolVersion: "x", capabilities: {} }],
        [
          "resources.subscribe of the wrong type",
          { protocolVersion: "x", capabilities: { resources: { subscribe: "yes" } }, serverInfo: implementation },
        ],
        ["instructions of the wrong type", { protocolVersion: "x", capabilities: {}, serverInfo: implementation, instructions: 5 }],
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
        ["missing argument", { ref: { type: "ref/prompt", name: "greet" } }],
        ["unknown reference type", { ref: { type: "ref/tool", name: "t" }, argument: { name: "a", value: "b" } }],
        ["argument value of the wrong type", { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: 1 } }],
      ],
    },
    result: {
      valid: [["values with total", { completion: { values: ["Alice", "Alan"], total: 10, hasMore: true } }]],
      invalid: [
        ["missing completion", {}],
        ["more than 100 values", { completion: { values: Array.from({ length: 101 }, (_, index) => `v${index}`) } }],
        ["total not an integer", { completion: { values: [], total: 1.5 } }],
        ["a value of the wrong type", { completion: { values: [1] } }],
      ],
    },
  },
  "logging/setLevel": {
    params: {
      valid: [["a level", { level: "warning" }]],
      invalid: [
        ["unknown level", { level: "verbose" }],
        ["missing level", {}],
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
        ["missing prompts", {}],
        ["a prompt without a name", { prompts: [{ description: "d" }] }],
        ["argument.required of the wrong type", { prompts: [{ name: "p", arguments: [{ name: "a", required: "yes" }] }] }],
        ["nextCursor of the wrong type", { prompts: [], nextCursor: 5 }],
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
        ["missing name", { arguments: {} }],
        ["an argument that is not a string", { name: "greet", arguments: { who: 1 } }],
      ],
    },
    result: {
      valid: [
        [
          "text, image and embedded resource messages",
          {
            description: "d",
            messages: [
              userMessage,
              { role: "assistant", content: imageContent },
              { role: "user", content: embeddedResource },
            ],
          },
        ],
      ],
      invalid: [
        ["missing messages", { description: "d" }],
        ["unknown role", { messages: [{ role: "system", content: textContent }] }],
        ["unknown content type", { messages: [{ role: "user", content: { type: "video", data: "x" } }] }],
        ["text content without text", { messages: [{ role: "user", content: { type: "text" } }] }],
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
        ["missing resources", {}],
        ["a resource without a uri", { resources: [{ name: "a" }] }],
        ["size not an integer", { resources: [{ uri: "u", name: "a", size: 1.5 }] }],
        ["priority above 1", { resources: [{ uri: "u", name: "a", annotations: { priority: 2 } }] }],
        ["unknown audience", { resources: [{ uri: "u", name: "a", annotations: { audience: ["bot"] } }] }],
      ],
    },
  },
  "resources/templates/list": {
    params: paginatedParams,
    result: {
      valid: [["a template", { resourceTemplates: [{ uriTemplate: "file:///{path}", name: "files" }] }]],
      invalid: [
        ["a template without uriTemplate", { resourceTemplates: [{ name: "files" }] }],
        ["missing resourceTemplates", {}],
      ],
    },
  },
  "resources/read": {
    params: uriParams,
    result: {
      valid: [
        [
          "text and blob contents",
          { contents: [{ uri: "file:///a", text: "x" }, { uri: "file:///b", blob: "AAE=", mimeType: "application/pdf" }] },
        ],
      ],
      invalid: [
        ["contents without text or blob", { contents: [{ uri: "file:///a" }] }],
        ["missing contents", {}],
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
        ["a tool without inputSchema", { tools: [{ name: "add" }] }],
        ["an inputSchema that is not an object schema", { tools: [{ name: "add", inputSchema: { type: "array" } }] }],
        ["a property schema that is not an object", { tools: [{ name: "add", inputSchema: { type: "object", properties: { a: "number" } } }] }],
        ["missing tools", {}],
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
        ["missing name", { arguments: {} }],
        ["arguments not an object", { name: "add", arguments: "a=1" }],
      ],
    },
    result: {
      valid: [
        ["text content", { content: [textContent], isError: false }],
        ["image and embedded resource", { content: [imageContent, embeddedResource] }],
      ],
      invalid: [
        ["missing content", { isError: true }],
        ["isError of the wrong type", { content: [], isError: "no" }],
        ["unknown content type", { content: [{ type: "video" }] }],
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
        ["missing maxTokens", { messages: [userMessage] }],
        ["maxTokens not an integer", { messages: [userMessage], maxTokens: 1.5 }],
        ["unknown includeContext", { messages: [userMessage], maxTokens: 1, includeContext: "everything" }],
        ["costPriority above 1", { messages: [userMessage], maxTokens: 1, modelPreferences: { costPriority: 1.5 } }],
        ["embedded resource content", { messages: [{ role: "user", content: embeddedResource }], maxTokens: 1 }],
      ],
    },
    result: {
      valid: [["a text answer", { role: "assistant", content: textContent, model: "m-1", stopReason: "endTurn" }]],
      invalid: [
        ["missing model", { role: "assistant", content: textContent }],
        ["unknown role", { role: "system", content: textContent, model: "m" }],
        ["stopReason of the wrong type", { role: "assistant", content: textContent, model: "m", stopReason: 5 }],
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
        ["not an object", "roots"],
        ["_meta not an object", { _meta: 1 }],
      ],
    },
    result: {
      valid: [["a root", { roots: [{ uri: "file:///home/project", name: "project" }] }]],
      invalid: [
        ["missing roots", {}],
        ["a root without a uri", { roots: [{ name: "project" }] }],
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
        ["missing message", { requestedSchema: { type: "object", properties: {} } }],
        ["a requested schema that is not an object schema", { message: "m", requestedSchema: { type: "array", properties: {} } }],
        [
          "a nested object field",
          { message: "m", requestedSchema: { type: "object", properties: { address: { type: "object" } } } },
        ],
        [
          "minLength not an integer",
          { message: "m", requestedSchema: { type: "object", properties: { a: { type: "string", minLength: 1.5 } } } },
        ],
      ],
    },
    result: {
      valid: [
        ["accepted with content", { action: "accept", content: { email: "a@b.c", age: 3, subscribe: true } }],
        ["declined", { action: "decline" }],
      ],
      invalid: [
        ["unknown action", { action: "maybe" }],
        ["missing action", {}],
        ["a content value that is an object", { action: "accept", content: { email: {} } }],
      ],
    },
  },
  "tasks/get": { params: taskIdParams, result: taskResult },
  "tasks/cancel": { params: taskIdParams, result: taskResult },
  "tasks/result": {
    params: taskIdParams,
    result: {
      valid: [
        ["a tool result", { content: [textContent], _meta: { "io.modelcontextprotocol/related-task": { taskId: "task-1" } } }],
      ],
      invalid: [
        ["not an object", "done"],
        ["_meta not an object", { _meta: 1 }],
      ],
    },
  },
  "tasks/list": {
    params: paginatedParams,
    result: {
      valid: [["a page of tasks", { tasks: [task], nextCursor: "n" }]],
      invalid: [
        ["missing tasks", {}],
        ["a task with an unknown status", { tasks: [{ ...task, status: "paused" }] }],
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
      ["requestId not an integer", { requestId: 1.5 }],
      ["reason of the wrong type", { requestId: 1, reason: 5 }],
    ],
  },
  "notifications/progress": {
    valid: [
      ["string token with total", { progressToken: "t", progress: 1, total: 10 }],
      ["integer token, fractional progress", { progressToken: 3, progress: 0.5 }],
    ],
    invalid: [
      ["missing progress", { progressToken: "t" }],
      ["progress of the wrong type", { progressToken: "t", progress: "1" }],
      ["null token", { progressToken: null, progress: 1 }],
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
      ["missing data", { level: "info" }],
      ["unknown level", { level: "fatal", data: "x" }],
      ["logger of the wrong type", { level: "info", logger: 5, data: "x" }],
    ],
  },
  "notifications/resources/updated": {
    valid: [["a uri", { uri: "file:///a" }]],
    invalid: [
      ["missing uri", {}],
      ["uri of the wrong type", { uri: 5 }],
    ],
  },
  "notifications/elicitation/complete": {
    valid: [["an elicitation id", { elicitationId: "e-1" }]],
    invalid: [
      ["missing elicitationId", {}],
      ["elicitationId of the wrong type", { elicitationId: 5 }],
    ],
  },
  "notifications/tasks/status": taskResult,
};
