import { describe, expect, it } from "vitest";

import type { TaskRecord } from "../../stores/task-store.js";
import { createTaskResult, detailedTask } from "./extension-views.js";

const base: TaskRecord = {
  taskId: "t1",
  status: "working",
  createdAt: Date.UTC(2026, 0, 2, 3, 4, 5, 6),
  lastUpdatedAt: Date.UTC(2026, 0, 2, 3, 4, 6, 0),
  ttl: null,
  version: 1,
  request: { method: "tools/call" },
  data: { answers: {} },
};

describe("the tasks extension's views of a stored task", () => {
  it("writes times as ISO 8601, ttl as ttlMs (null kept), and leaves out what the record lacks and what is the server's own", () => {
    expect(createTaskResult(base)).toEqual({
      resultType: "task",
      taskId: "t1",
      status: "working",
      createdAt: "2026-01-02T03:04:05.006Z",
      lastUpdatedAt: "2026-01-02T03:04:06.000Z",
      ttlMs: null,
    });
    expect(detailedTask({ ...base, statusMessage: "half", pollInterval: 500, ttl: 60_000 })).toEqual({
      taskId: "t1",
      status: "working",
      statusMessage: "half",
      createdAt: "2026-01-02T03:04:05.006Z",
      lastUpdatedAt: "2026-01-02T03:04:06.000Z",
      ttlMs: 60_000,
      pollIntervalMs: 500,
    });
  });

  it("shows every outstanding request for input in the MRTR shape, a request without params with empty ones", () => {
    const asking: TaskRecord = {
      ...base,
      status: "input_required",
      inputRequests: { roots: { method: "roots/list" }, name: { method: "elicitation/create", params: { message: "Name?" } } },
    };
    expect(detailedTask(asking)["inputRequests"]).toEqual({
      roots: { method: "roots/list", params: {} },
      name: { method: "elicitation/create", params: { message: "Name?" } },
    });
  });

  it("shows a cancelled task with nothing more", () => {
    expect(Object.keys(detailedTask({ ...base, status: "cancelled" })).toSorted()).toEqual([
      "createdAt",
      "lastUpdatedAt",
      "status",
      "taskId",
      "ttlMs",
    ]);
  });
});
