// Wire samples of the tasks extension of revision 2026-07-28 (io.modelcontextprotocol/tasks), in the
// form of samples-2026.test-helpers.ts, which merges them into the revision's samples.
import { META_KEYS } from "../constants/index.js";
import type { RequestSamples, SampleSet } from "./samples.test-helpers.js";

const meta = { [META_KEYS.protocolVersion]: "2026-07-28", [META_KEYS.clientCapabilities]: {} };
const params = (extra: object = {}): object => ({ _meta: meta, ...extra });
const listened = { _meta: { [META_KEYS.subscriptionId]: "listen-1" } };
const complete = { resultType: "complete" };
const textContent = { type: "text", text: "hello" };
const elicitation = {
  method: "elicitation/create",
  params: { message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
};
const rootsRequest = { method: "roots/list" };
const answers = { name: { action: "accept", content: { name: "octocat" } }, roots: { roots: [{ uri: "file:///home/project" }] } };

export const task = {
  taskId: "t-1",
  status: "working",
  createdAt: "2026-07-28T10:00:00.000Z",
  lastUpdatedAt: "2026-07-28T10:00:01.000Z",
  ttlMs: 60000,
};
export function taskWithout(field: keyof typeof task): object {
  const { [field]: _left, ...rest } = task;
  return rest;
}
const taskIdParams: SampleSet = {
  valid: [["a task id", params({ taskId: "t-1" })]],
  invalid: [
    ["missing taskId", params(), "taskId: is required"],
    ["a task id not a string", params({ taskId: 7 }), "taskId: expected string, received number"],
  ],
};
/** The answer of tasks/update and tasks/cancel: an acknowledgement, nothing of the task. */
const acknowledged: SampleSet = {
  valid: [
    ["acknowledged", { resultType: "complete" }],
    ["without resultType", {}],
  ],
  invalid: [["an unknown result type", { resultType: "task" }, 'resultType: expected "complete"']],
};

export const TASK_REQUEST_SAMPLES_2026: Readonly<Record<string, RequestSamples>> = {
  "tasks/get": {
    params: taskIdParams,
    result: {
      valid: [
        ["working, with every optional field", { ...complete, ...task, statusMessage: "half way", pollIntervalMs: 500 }],
        ["input required", { ...task, status: "input_required", inputRequests: { name: elicitation } }],
        ["completed", { ...task, status: "completed", result: { content: [textContent], isError: true } }],
        ["failed", { ...task, status: "failed", error: { code: -32603, message: "boom" } }],
        ["cancelled, kept for ever", { ...task, status: "cancelled", ttlMs: null }],
      ],
      invalid: [
        ["the core revision's field names", { ...taskWithout("ttlMs"), ttl: 1000 }, "ttlMs: is required"],
        ["input required without its requests", { ...task, status: "input_required" }, "inputRequests: is required"],
        ["completed without its result", { ...task, status: "completed" }, "result: is required"],
        ["failed with an error without a code", { ...task, status: "failed", error: { message: "boom" } }, "error.code: is required"],
        [
          "an unknown status",
          { ...task, status: "paused" },
          'status: expected one of "working" | "input_required" | "completed" | "failed" | "cancelled"',
        ],
        ["a ttl not an integer", { ...task, ttlMs: 1.5 }, "ttlMs: expected integer, received number"],
      ],
    },
  },
  "tasks/update": {
    params: {
      valid: [
        ["answers to two keys", params({ taskId: "t-1", inputResponses: { name: answers.name, roots: answers.roots } })],
        [
          "an answer to a key the server may not wait for, of any shape",
          params({ taskId: "t-1", inputResponses: { other: { ignored: true } } }),
        ],
      ],
      invalid: [
        ["without answers", params({ taskId: "t-1" }), "inputResponses: is required"],
        [
          "answers that are not an object",
          params({ taskId: "t-1", inputResponses: [answers.name] }),
          "inputResponses: expected record, received array",
        ],
        ["without _meta", { taskId: "t-1", inputResponses: {} }, "_meta: is required"],
      ],
    },
    result: acknowledged,
  },
  "tasks/cancel": { params: taskIdParams, result: acknowledged },
};

export const TASK_NOTIFICATION_SAMPLES_2026: Readonly<Record<string, SampleSet>> = {
  "notifications/tasks": {
    valid: [
      ["a completed task on a listen stream", { ...task, status: "completed", result: { content: [textContent] }, ...listened }],
      ["a task waiting for input", { ...task, status: "input_required", inputRequests: { roots: rootsRequest } }],
    ],
    invalid: [
      [
        "without a status",
        taskWithout("status"),
        'status: expected one of "working" | "input_required" | "completed" | "failed" | "cancelled"',
      ],
      ["failed without its error", { ...task, status: "failed" }, "error: is required"],
    ],
  },
};
