// Wire samples for revision 2026-07-28, in the form of samples.test-helpers.ts: the valid ones hold,
// the invalid ones fail with the issue line given. Requests there carry the per-request `_meta` and
// results a resultType, so its methods get samples of their own.
import { type AnyProtocolVersion, isStatelessProtocolVersion, META_KEYS } from "../constants/index.js";
import { NOTIFICATION_SAMPLES, REQUEST_SAMPLES, type RequestSamples, type SampleSet } from "./samples.test-helpers.js";
import { TASK_NOTIFICATION_SAMPLES_2026, TASK_REQUEST_SAMPLES_2026, task, taskWithout } from "./samples-2026-tasks.test-helpers.js";

const LOGGING_LEVELS = '"debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency"';
const ELICITATION_ACTIONS = '"accept" | "decline" | "cancel"';
const VERSION = `_meta["${META_KEYS.protocolVersion}"]`;
const CAPABILITIES = `_meta["${META_KEYS.clientCapabilities}"]`;

const implementation = { name: "example", version: "1.0.0" };
const textContent = { type: "text", text: "hello" };
const meta = { [META_KEYS.protocolVersion]: "2026-07-28", [META_KEYS.clientCapabilities]: {} };
const fullMeta = {
  progressToken: "progress-1",
  traceparent: "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01",
  [META_KEYS.protocolVersion]: "2026-07-28",
  [META_KEYS.clientCapabilities]: {
    roots: {},
    sampling: { tools: {} },
    elicitation: { form: {}, url: {} },
    extensions: { "com.example/ui": { mimeTypes: ["text/html"] } },
  },
  [META_KEYS.clientInfo]: implementation,
  [META_KEYS.logLevel]: "warning",
};
const params = (extra: object = {}): object => ({ _meta: meta, ...extra });
const listened = { _meta: { [META_KEYS.subscriptionId]: "listen-1" } };

const elicitation = {
  method: "elicitation/create",
  params: { message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
};
const urlElicitation = { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com/sign-in" } };
const sampling = { method: "sampling/createMessage", params: { messages: [{ role: "user", content: textContent }], maxTokens: 100 } };
const rootsRequest = { method: "roots/list" };
const answers = {
  name: { action: "accept", content: { name: "octocat" } },
  capital: { role: "assistant", content: textContent, model: "model-1", stopReason: "endTurn" },
  roots: { roots: [{ uri: "file:///home/project" }] },
};

// ---- Params ----

const requestParams: SampleSet = {
  valid: [
    ["the required _meta", params()],
    ["every _meta key", { _meta: fullMeta }],
  ],
  invalid: [
    ["absent", undefined, "is required"],
    ["without _meta", {}, "_meta: is required"],
    ["without a protocol version", { _meta: { [META_KEYS.clientCapabilities]: {} } }, `${VERSION}: is required`],
    ["without client capabilities", { _meta: { [META_KEYS.protocolVersion]: "2026-07-28" } }, `${CAPABILITIES}: is required`],
    [
      "a protocol version of the wrong type",
      params({ _meta: { ...meta, [META_KEYS.protocolVersion]: 20260728 } }),
      `${VERSION}: expected string, received number`,
    ],
    [
      "an unknown log level",
      params({ _meta: { ...meta, [META_KEYS.logLevel]: "verbose" } }),
      `_meta["${META_KEYS.logLevel}"]: expected ${LOGGING_LEVELS}`,
    ],
    [
      "client info without a version",
      params({ _meta: { ...meta, [META_KEYS.clientInfo]: { name: "c" } } }),
      `_meta["${META_KEYS.clientInfo}"].version: is required`,
    ],
    [
      "an extension setting that is not an object",
      params({ _meta: { ...meta, [META_KEYS.clientCapabilities]: { extensions: { "com.example/ui": true } } } }),
      `${CAPABILITIES}.extensions["com.example/ui"]: expected object, received boolean`,
    ],
    [
      "a progress token not an integer",
      params({ _meta: { ...meta, progressToken: 1.5 } }),
      "_meta.progressToken: expected string | integer, received number",
    ],
  ],
};

const paginatedParams: SampleSet = {
  valid: [
    ["first page", params()],
    ["with a cursor", params({ cursor: "page-2" })],
  ],
  invalid: [
    ["absent", undefined, "is required"],
    ["a cursor without _meta", { cursor: "page-2" }, "_meta: is required"],
    ["cursor of the wrong type", params({ cursor: 5 }), "cursor: expected string, received number"],
  ],
};

const retried = { inputResponses: answers, requestState: "opaque-state" };

// ---- Results ----

const cacheHints = { ttlMs: 60000, cacheScope: "public" };
const complete = { resultType: "complete" };

/** The input-required form every retryable method answers with, and how its mistakes read. */
function orInputRequired(result: SampleSet): SampleSet {
  return {
    valid: [
      ...result.valid,
      [
        "input required: one request of each kind",
        { resultType: "input_required", inputRequests: { name: elicitation, capital: sampling, roots: rootsRequest } },
      ],
      [
        "input required: a URL elicitation and state",
        { resultType: "input_required", inputRequests: { login: urlElicitation }, requestState: "s-1" },
      ],
      [
        "input required: state only",
        { resultType: "input_required", requestState: "s-2", _meta: { [META_KEYS.serverInfo]: implementation } },
      ],
    ],
    invalid: [
      ...result.invalid,
      ["input required with neither requests nor state", { resultType: "input_required" }, "inputRequests: is required"],
      [
        "an input request of an unknown method",
        { resultType: "input_required", inputRequests: { p: { method: "ping" } } },
        'inputRequests.p.method: expected one of "elicitation/create" | "sampling/createMessage" | "roots/list"',
      ],
      [
        "a sampling request without maxTokens",
        { resultType: "input_required", inputRequests: { c: { ...sampling, params: { messages: [] } } } },
        "inputRequests.c.params.maxTokens: is required",
      ],
      [
        "a URL elicitation without its url",
        { resultType: "input_required", inputRequests: { l: { ...urlElicitation, params: { mode: "url", message: "m" } } } },
        "inputRequests.l.params.url: is required",
      ],
      [
        "request state of the wrong type",
        { resultType: "input_required", requestState: 7 },
        "requestState: expected string, received number",
      ],
    ],
  };
}

function cacheable(result: SampleSet, minimal: object): SampleSet {
  return {
    valid: [...result.valid, ["without caching hints or resultType", minimal]],
    invalid: [
      ...result.invalid,
      ["an unknown cache scope", { ...minimal, cacheScope: "shared" }, 'cacheScope: expected "public" | "private"'],
      ["ttlMs not an integer", { ...minimal, ttlMs: 1.5 }, "ttlMs: expected integer, received number"],
      ["an unknown result type", { ...minimal, resultType: "task" }, 'resultType: expected "complete"'],
    ],
  };
}

// ---- The samples ----

export const REQUEST_SAMPLES_2026: Readonly<Record<string, RequestSamples>> = {
  "server/discover": {
    params: requestParams,
    result: cacheable(
      {
        valid: [
          [
            "versions, capabilities and instructions",
            {
              ...complete,
              ...cacheHints,
              supportedVersions: ["2026-07-28", "2025-11-25"],
              capabilities: {
                tools: { listChanged: true },
                resources: { subscribe: true },
                extensions: { "io.modelcontextprotocol/tasks": {} },
              },
              instructions: "Use the tools.",
              _meta: { [META_KEYS.serverInfo]: implementation },
            },
          ],
        ],
        invalid: [
          ["missing supportedVersions", { capabilities: {} }, "supportedVersions: is required"],
          [
            "a version of the wrong type",
            { supportedVersions: [2026], capabilities: {} },
            "supportedVersions[0]: expected string, received number",
          ],
          [
            "server info without a name",
            { supportedVersions: [], capabilities: {}, _meta: { [META_KEYS.serverInfo]: { version: "1" } } },
            `_meta["${META_KEYS.serverInfo}"].name: is required`,
          ],
        ],
      },
      { supportedVersions: ["2026-07-28"], capabilities: {} },
    ),
  },
  "completion/complete": {
    params: {
      valid: [["a prompt reference", params({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "Al" } })]],
      invalid: [
        ["without _meta", { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "Al" } }, "_meta: is required"],
        ["missing argument", params({ ref: { type: "ref/prompt", name: "greet" } }), "argument: is required"],
      ],
    },
    result: {
      valid: [
        ["complete", { ...complete, completion: { values: ["Alice"], total: 1, hasMore: false } }],
        ["without resultType", { completion: { values: [] } }],
      ],
      invalid: [
        ["an unknown result type", { resultType: "task", completion: { values: [] } }, 'resultType: expected "complete"'],
        ["missing completion", complete, "completion: is required"],
      ],
    },
  },
  "prompts/list": {
    params: paginatedParams,
    result: cacheable(
      {
        valid: [["a prompt", { ...complete, ...cacheHints, prompts: [{ name: "greet" }], nextCursor: "n" }]],
        invalid: [["missing prompts", cacheHints, "prompts: is required"]],
      },
      { prompts: [] },
    ),
  },
  "prompts/get": {
    params: {
      valid: [
        ["with arguments", params({ name: "greet", arguments: { who: "Al" } })],
        ["a retry with every kind of answer", params({ name: "greet", ...retried })],
      ],
      invalid: [
        ["missing name", params(), "name: is required"],
        [
          "an answer of no known kind",
          params({ name: "greet", inputResponses: { name: { value: "octocat" } } }),
          `inputResponses.name.action: is required, expected ${ELICITATION_ACTIONS}`,
        ],
        [
          "request state of the wrong type",
          params({ name: "greet", requestState: { step: 2 } }),
          "requestState: expected string, received object",
        ],
      ],
    },
    result: orInputRequired({
      valid: [["messages", { ...complete, messages: [{ role: "user", content: textContent }] }]],
      invalid: [["missing messages", complete, "messages: is required"]],
    }),
  },
  "resources/list": {
    params: paginatedParams,
    result: cacheable(
      {
        valid: [["a resource", { ...complete, ...cacheHints, resources: [{ uri: "file:///a", name: "a" }] }]],
        invalid: [["missing resources", cacheHints, "resources: is required"]],
      },
      { resources: [] },
    ),
  },
  "resources/templates/list": {
    params: paginatedParams,
    result: cacheable(
      {
        valid: [["a template", { ...complete, ...cacheHints, resourceTemplates: [{ uriTemplate: "file:///{path}", name: "files" }] }]],
        invalid: [["missing resourceTemplates", cacheHints, "resourceTemplates: is required"]],
      },
      { resourceTemplates: [] },
    ),
  },
  "resources/read": {
    params: {
      valid: [
        ["a uri", params({ uri: "file:///a" })],
        ["a retry with state only", params({ uri: "file:///a", requestState: "opaque-state" })],
      ],
      invalid: [
        ["missing uri", params(), "uri: is required"],
        [
          "answers that are not an object",
          params({ uri: "file:///a", inputResponses: [answers.name] }),
          "inputResponses: expected record, received array",
        ],
      ],
    },
    result: orInputRequired(
      cacheable(
        {
          valid: [["text contents", { ...complete, ...cacheHints, contents: [{ uri: "file:///a", text: "x" }] }]],
          invalid: [["missing contents", cacheHints, "contents: is required"]],
        },
        { contents: [] },
      ),
    ),
  },
  "subscriptions/listen": {
    params: {
      valid: [
        [
          "every kind of notification",
          params({
            notifications: {
              toolsListChanged: true,
              promptsListChanged: false,
              resourcesListChanged: true,
              resourceSubscriptions: ["file:///a"],
              taskIds: ["t-1"],
            },
          }),
        ],
        ["none", params({ notifications: {} })],
      ],
      invalid: [
        ["missing notifications", params(), "notifications: is required"],
        ["task ids not a list", params({ notifications: { taskIds: "t-1" } }), "notifications.taskIds: expected array, received string"],
        [
          "resource subscriptions not a list",
          params({ notifications: { resourceSubscriptions: "file:///a" } }),
          "notifications.resourceSubscriptions: expected array, received string",
        ],
        [
          "a flag of the wrong type",
          params({ notifications: { toolsListChanged: "yes" } }),
          "notifications.toolsListChanged: expected boolean, received string",
        ],
      ],
    },
    result: {
      valid: [
        ["closed by the server", { ...complete, _meta: { [META_KEYS.subscriptionId]: 1 } }],
        ["without resultType", listened],
      ],
      invalid: [
        ["without _meta", complete, "_meta: is required"],
        ["without a subscription id", { ...complete, _meta: {} }, `_meta["${META_KEYS.subscriptionId}"]: is required`],
        [
          "a subscription id not an integer",
          { _meta: { [META_KEYS.subscriptionId]: 1.5 } },
          `_meta["${META_KEYS.subscriptionId}"]: expected string | integer, received number`,
        ],
      ],
    },
  },
  "tools/list": {
    params: paginatedParams,
    result: cacheable(
      {
        valid: [
          [
            "tools with open input and output schemas",
            {
              ...complete,
              ...cacheHints,
              tools: [
                {
                  name: "add",
                  inputSchema: { type: "object", properties: { a: { type: "number" } }, $defs: {} },
                  outputSchema: { type: "array" },
                },
              ],
            },
          ],
        ],
        invalid: [
          [
            "an input schema that is not an object schema",
            { tools: [{ name: "add", inputSchema: { type: "array" } }] },
            'tools[0].inputSchema.type: expected "object"',
          ],
          ["missing tools", cacheHints, "tools: is required"],
        ],
      },
      { tools: [] },
    ),
  },
  "tools/call": {
    params: {
      valid: [
        ["with arguments and every _meta key", { _meta: fullMeta, name: "add", arguments: { a: 1 } }],
        ["a retry with every kind of answer", params({ name: "add", ...retried })],
      ],
      invalid: [
        ["without _meta", { name: "add" }, "_meta: is required"],
        ["arguments not an object", params({ name: "add", arguments: "a=1" }), "arguments: expected record, received string"],
        [
          "an elicitation answer with an unknown action",
          params({ name: "add", inputResponses: { name: { action: "maybe" } } }),
          `inputResponses.name.action: expected ${ELICITATION_ACTIONS}`,
        ],
      ],
    },
    result: orInputRequired({
      valid: [
        ["structured content of any JSON type", { ...complete, content: [textContent], structuredContent: [1, 2], isError: false }],
        ["a task the server made of the call", { ...task, resultType: "task", _meta: { [META_KEYS.serverInfo]: implementation } }],
      ],
      invalid: [
        ["missing content", complete, "content: is required"],
        ["an unknown result type", { resultType: "tasks", content: [] }, 'resultType: expected "complete"'],
        ["a task without its id", { ...taskWithout("taskId"), resultType: "task" }, "taskId: is required"],
      ],
    }),
  },
  ...TASK_REQUEST_SAMPLES_2026,
};

const listChanged: SampleSet = {
  valid: [
    ["absent", undefined],
    ["on a listen stream", listened],
  ],
  invalid: [
    ["not an object", "changed", "expected object, received string"],
    [
      "a subscription id of the wrong type",
      { _meta: { [META_KEYS.subscriptionId]: true } },
      `_meta["${META_KEYS.subscriptionId}"]: expected string | number, received boolean`,
    ],
  ],
};

export const NOTIFICATION_SAMPLES_2026: Readonly<Record<string, SampleSet>> = {
  "notifications/cancelled": {
    valid: [
      ["a request id and reason", { requestId: "abc", reason: "user aborted" }],
      ["ending a listen stream", { requestId: 7, ...listened }],
    ],
    invalid: [
      ["missing requestId", { reason: "x" }, "requestId: is required"],
      ["requestId not an integer", { requestId: 1.5 }, "requestId: expected string | integer, received number"],
    ],
  },
  "notifications/progress": {
    valid: [["a token, total and message", { progressToken: "p", progress: 1, total: 10, message: "one" }]],
    invalid: [
      ["missing progress", { progressToken: "p" }, "progress: is required"],
      [
        "a subscription id of the wrong type",
        { progressToken: "p", progress: 1, _meta: { [META_KEYS.subscriptionId]: {} } },
        `_meta["${META_KEYS.subscriptionId}"]: expected string | number, received object`,
      ],
    ],
  },
  "notifications/message": {
    valid: [["structured data", { level: "info", logger: "db", data: { rows: 3 } }]],
    invalid: [
      ["unknown level", { level: "fatal", data: "x" }, `level: expected ${LOGGING_LEVELS}`],
      ["missing data", { level: "info" }, "data: is required"],
    ],
  },
  "notifications/resources/updated": {
    valid: [["on a listen stream", { uri: "file:///a", ...listened }]],
    invalid: [["missing uri", listened, "uri: is required"]],
  },
  "notifications/resources/list_changed": listChanged,
  "notifications/tools/list_changed": listChanged,
  "notifications/prompts/list_changed": listChanged,
  ...TASK_NOTIFICATION_SAMPLES_2026,
  "notifications/subscriptions/acknowledged": {
    valid: [
      [
        "the filter the server agreed to",
        { notifications: { toolsListChanged: true, resourceSubscriptions: ["file:///a"], taskIds: ["t-1"] }, ...listened },
      ],
    ],
    invalid: [
      ["missing notifications", listened, "notifications: is required"],
      [
        "a flag of the wrong type",
        { notifications: { promptsListChanged: 1 } },
        "notifications.promptsListChanged: expected boolean, received number",
      ],
    ],
  },
};

export interface RevisionSamples {
  readonly requests: Readonly<Record<string, RequestSamples>>;
  readonly notifications: Readonly<Record<string, SampleSet>>;
}

/** The samples of a revision's methods: the session-era ones, or those of the stateless revision. */
export function samplesFor(version: AnyProtocolVersion): RevisionSamples {
  return isStatelessProtocolVersion(version)
    ? { requests: REQUEST_SAMPLES_2026, notifications: NOTIFICATION_SAMPLES_2026 }
    : { requests: REQUEST_SAMPLES, notifications: NOTIFICATION_SAMPLES };
}
