// The TaskStore contract as a property: random sequences of create, update, cancel, racing final
// updates, get, list, clock moves and expire agree with a model a few lines long, and every task
// ends in at most one final state that nothing changes afterwards.
import * as fc from "fast-check";
import { expect, it } from "vitest";

import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError } from "../error-codes/mcp-error.js";
import type { TaskPatch, TaskPrecondition, TaskStatus, TaskStore, TaskUpdateOutcome } from "./task-store.js";

type MakeStore = (options: { now: () => number; maxTasksPerOwner: number }) => TaskStore | Promise<TaskStore>;

const SEED = 20260728;
const OWNERS = ["a", "b"] as const;
const LIMIT = 4;

type Target = TaskStatus | "message";
type Op =
  | { readonly kind: "create"; readonly owner: number; readonly ttl: number | null }
  | {
      readonly kind: "update";
      readonly owner: number;
      readonly task: number;
      readonly to: Target;
      readonly version: "none" | "current" | "stale";
    }
  | { readonly kind: "cancel" | "race" | "get"; readonly owner: number; readonly task: number }
  | { readonly kind: "list"; readonly owner: number; readonly limit: number }
  | { readonly kind: "advance"; readonly ms: number }
  | { readonly kind: "expire" };

interface Modelled {
  readonly id: string;
  readonly owner: string;
  readonly expiresAt: number;
  status: TaskStatus;
  version: number;
  swept: boolean;
}

interface Run {
  readonly store: TaskStore;
  readonly tasks: Modelled[];
  readonly now: () => number;
  readonly advance: (ms: number) => void;
}

const anOwner = fc.nat(OWNERS.length - 1);
const aTask = fc.nat(20);
const OP: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("create" as const), owner: anOwner, ttl: fc.constantFrom(300, 1000, null) }),
  fc.record({
    kind: fc.constant("update" as const),
    owner: anOwner,
    task: aTask,
    to: fc.constantFrom<Target>("working", "input_required", "completed", "failed", "cancelled", "message"),
    version: fc.constantFrom("none" as const, "current" as const, "stale" as const),
  }),
  fc.record({ kind: fc.constantFrom("cancel" as const, "race" as const, "get" as const), owner: anOwner, task: aTask }),
  fc.record({ kind: fc.constant("list" as const), owner: anOwner, limit: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 700 }) }),
  fc.record({ kind: fc.constant("expire" as const) }),
);

const PATCHES: Readonly<Record<Target, TaskPatch>> = {
  working: { status: "working" },
  input_required: { status: "input_required", inputRequests: { ask: { method: "elicitation/create" } } },
  completed: { status: "completed", result: { content: [] } },
  failed: { status: "failed", error: { code: -32603, message: "broke" } },
  cancelled: { status: "cancelled" },
  message: { statusMessage: "still going" },
};

/** `runs`: random sequences to try (the test file decides: small in `npm test`, more for a campaign). */
export function describeTaskStoreModel(makeStore: MakeStore, runs: number): void {
  it("agrees with a model over random sequences, and ends every task in at most one final state", async () => {
    let sequences = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(OP, { maxLength: 40 }), async (ops) => {
        let time = 1_000_000;
        const run: Run = {
          store: await makeStore({ now: () => time, maxTasksPerOwner: LIMIT }),
          tasks: [],
          now: () => time,
          advance: (ms) => (time += ms),
        };
        for (const op of ops) await step(run, op);
        for (const modelled of run.tasks) await checkGet(run, modelled.owner, modelled);
        sequences += 1;
      }),
      { numRuns: runs, seed: SEED },
    );
    expect(sequences).toBe(runs);
  });
}

async function step(run: Run, op: Op): Promise<void> {
  switch (op.kind) {
    case "create":
      return create(run, OWNERS[op.owner] as string, op.ttl);
    case "update":
      return update(run, OWNERS[op.owner] as string, op.task, op.to, op.version);
    case "cancel":
      return update(run, OWNERS[op.owner] as string, op.task, "cancelled", "none", true);
    case "race":
      return race(run, OWNERS[op.owner] as string, op.task);
    case "get":
      return checkGet(run, OWNERS[op.owner] as string, pick(run, op.task));
    case "list":
      return list(run, OWNERS[op.owner] as string, op.limit);
    case "advance":
      return run.advance(op.ms);
    case "expire":
      return expire(run);
  }
}

/** One of the tasks made so far, or (one time in as many) a task id never made. */
function pick(run: Run, index: number): Modelled | undefined {
  return run.tasks[index % (run.tasks.length + 1)];
}

function visible(run: Run, owner: string, modelled: Modelled | undefined): modelled is Modelled {
  return modelled !== undefined && modelled.owner === owner && run.now() < modelled.expiresAt;
}

const isFinal = (status: TaskStatus): boolean => status === "completed" || status === "failed" || status === "cancelled";

async function create(run: Run, owner: string, ttl: number | null): Promise<void> {
  const held = run.tasks.filter((modelled) => visible(run, owner, modelled)).length;
  const made = run.store.create(owner, { request: { method: "tools/call", params: { name: "t" } }, ttl });
  if (held >= LIMIT) {
    await expect(made).rejects.toSatisfy((error: unknown) => error instanceof MCPError && error.code === MCP_CODES.RATE_LIMITED);
    return;
  }
  const record = await made;
  expect(record).toMatchObject({ status: "working", version: 1, createdAt: run.now(), ttl });
  expect(run.tasks.some((modelled) => modelled.id === record.taskId)).toBe(false);
  run.tasks.push({
    id: record.taskId,
    owner,
    expiresAt: ttl === null ? Number.POSITIVE_INFINITY : run.now() + ttl,
    status: "working",
    version: 1,
    swept: false,
  });
}

async function update(
  run: Run,
  owner: string,
  index: number,
  to: Target,
  version: "none" | "current" | "stale",
  viaCancel = false,
): Promise<void> {
  const modelled = pick(run, index);
  const id = modelled?.id ?? "never-made";
  const precondition: TaskPrecondition | undefined =
    version === "none" ? undefined : { version: (modelled?.version ?? 1) + (version === "stale" ? 1 : 0) };
  const outcome = await (viaCancel ? run.store.cancel(owner, id) : run.store.update(owner, id, PATCHES[to], precondition));
  expect(outcome).toEqual(expected(run, owner, modelled, precondition));
  if (outcome.ok) {
    const target = modelled as Modelled;
    if (to !== "message") target.status = to;
    target.version += 1;
    expect(outcome.task).toMatchObject({ taskId: target.id, status: target.status, version: target.version, lastUpdatedAt: run.now() });
  }
}

/** What the model says an update gives. */
function expected(run: Run, owner: string, modelled: Modelled | undefined, precondition: TaskPrecondition | undefined): unknown {
  if (!visible(run, owner, modelled)) return { ok: false, reason: "not-found" };
  const seen = expect.objectContaining({ taskId: modelled.id, status: modelled.status, version: modelled.version });
  if (isFinal(modelled.status)) return { ok: false, reason: "final", task: seen };
  if (precondition !== undefined && precondition.version !== modelled.version) return { ok: false, reason: "precondition", task: seen };
  return { ok: true, task: expect.anything() };
}

/** A completion, a failure and a cancel sent at once: at most one is taken, and it is what the task stays. */
async function race(run: Run, owner: string, index: number): Promise<void> {
  const modelled = pick(run, index);
  const id = modelled?.id ?? "never-made";
  const outcomes: TaskUpdateOutcome[] = await Promise.all([
    run.store.update(owner, id, PATCHES.completed),
    run.store.cancel(owner, id),
    run.store.update(owner, id, PATCHES.failed),
  ]);
  const taken = outcomes.filter((outcome) => outcome.ok);
  const open = visible(run, owner, modelled) && !isFinal(modelled.status);
  expect(taken).toHaveLength(open ? 1 : 0);
  if (!open) return;
  const winner = taken[0] as { task: { status: TaskStatus; version: number } };
  modelled.status = winner.task.status;
  modelled.version += 1;
  expect(winner.task.version).toBe(modelled.version);
  for (const outcome of outcomes) if (!outcome.ok) expect(outcome).toMatchObject({ reason: "final", task: { status: modelled.status } });
}

async function checkGet(run: Run, owner: string, modelled: Modelled | undefined): Promise<void> {
  const found = await run.store.get(owner, modelled?.id ?? "never-made");
  const want = visible(run, owner, modelled) ? { taskId: modelled.id, status: modelled.status, version: modelled.version } : undefined;
  expect(found && { taskId: found.taskId, status: found.status, version: found.version }).toEqual(want);
}

async function list(run: Run, owner: string, limit: number): Promise<void> {
  const seen: { taskId: string; status: TaskStatus; version: number }[] = [];
  let cursor: string | undefined;
  do {
    const page = await run.store.list(owner, { limit, cursor });
    expect(page.tasks.length).toBeLessThanOrEqual(limit);
    seen.push(...page.tasks.map(({ taskId, status, version }) => ({ taskId, status, version })));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const live = run.tasks.filter((modelled) => visible(run, owner, modelled));
  expect(seen).toEqual(live.map(({ id, status, version }) => ({ taskId: id, status, version })));
}

/** expire() counts each expired task once at most (a store may free some sooner). */
async function expire(run: Run): Promise<void> {
  const due = run.tasks.filter((modelled) => !modelled.swept && run.now() >= modelled.expiresAt);
  const removed = await run.store.expire();
  expect(Number.isSafeInteger(removed) && removed >= 0 && removed <= due.length).toBe(true);
  for (const modelled of due) modelled.swept = true;
}
