// The fixtures of the ten tasks-* scenarios of @modelcontextprotocol/conformance 0.2.0-alpha.12 (the
// io.modelcontextprotocol/tasks extension, SEP-2663), added last to the one fixture server. The server
// is given `tasks: serverTasks(...)` (fixtures.mjs): a tool declares `execution.taskSupport`, and the
// server makes a task of a call whose request declared the extension; without it an `optional` tool
// runs in the request and a `required` one is refused (-32021).
//
// A tool's handler is the same either way: in a task its `ctx.signal` is the task's (tasks/cancel fires
// it) and its inputs wait in the task (`input_required`, answered with tasks/update); in the request
// they are the request's own input_required rounds.
//
// Names, arguments, keys and texts follow what the scenarios send and check (the "used by" comment on
// each names them).
import { JsonRpcError } from "@suaveplan/mcp";

const text = (value) => ({ type: "text", text: value });
const result = (value) => ({ content: [text(value)] });
const NO_ARGUMENTS = { type: "object", properties: {} };

/** Waits `ms`, or rejects with the signal's reason when it fires first. */
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = () => {
      signal.removeEventListener("abort", aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", aborted, { once: true });
  });
}

/** An elicitation form of optional fields. */
const form = (message, properties, required = []) => ({ message, requestedSchema: { type: "object", properties, required } });
const accepted = (answer, field) => (answer.action === "accept" ? answer.content?.[field] : undefined);

/** Asks the user's name (key user_name): test_tool_with_task's one MRTR round. */
async function askName(ctx) {
  const answer = await ctx.elicitInput(form("What is your name?", { name: { type: "string" } }, ["name"]), { key: "user_name" });
  return accepted(answer, "name") ?? `(${answer.action})`;
}

/** Registers the tasks-* fixtures on `server` (given the `tasks` option). */
export function addTasksFixtures(server) {
  // tasks-lifecycle, tasks-request-headers, tasks-dispatch-and-envelope: a tool that never runs as a task.
  server.tool(
    "greet",
    {
      description: "Greets by name, in the request (never a task)",
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
    ({ name }) => result(`Hello, ${name}!`),
  );

  // tasks-lifecycle, -capability-negotiation, -wire-fields, -request-state-removal, -request-headers,
  // -dispatch-and-envelope: sleeps `seconds` (0: at once), then answers; stops when cancelled, so a
  // cancelled task stays cancelled.
  server.tool(
    "slow_compute",
    {
      description: "Sleeps for `seconds`, then answers with its label; a task when the request declared the tasks extension",
      inputSchema: {
        type: "object",
        properties: { seconds: { type: "integer", minimum: 0 }, label: { type: "string" } },
        required: ["seconds"],
      },
      execution: { taskSupport: "optional" },
    },
    async ({ seconds, label = "" }, ctx) => {
      await sleep(seconds * 1000, ctx.signal);
      return result(`Computed ${label} after ${seconds}s`);
    },
  );

  // tasks-lifecycle, -dispatch-and-envelope (a task), -required-task-error (-32021 without the extension).
  server.tool(
    "failing_job",
    {
      description: "Always a task: after about a second, ends with a tool error (isError)",
      inputSchema: NO_ARGUMENTS,
      execution: { taskSupport: "required" },
    },
    async (_args, ctx) => {
      await sleep(1000, ctx.signal);
      return { content: [text("The job failed: the input could not be processed.")], isError: true };
    },
  );

  // tasks-lifecycle: a protocol error, so the task ends failed with its error.
  server.tool(
    "protocol_error_job",
    {
      description: "Fails with a JSON-RPC error (-32603): a task ends failed",
      inputSchema: NO_ARGUMENTS,
      execution: { taskSupport: "optional" },
    },
    () => {
      throw new JsonRpcError(-32603, "protocol_error_job failed on purpose");
    },
  );

  // tasks-mrtr-input, -dispatch-and-envelope: one question (boolean `confirm`), so the task waits input_required.
  server.tool(
    "confirm_delete",
    {
      description: "Asks the user to confirm deleting a file, then answers",
      inputSchema: { type: "object", properties: { filename: { type: "string" } }, required: ["filename"] },
      execution: { taskSupport: "optional" },
    },
    async ({ filename }, ctx) => {
      const answer = await ctx.elicitInput(form(`Delete ${filename}?`, { confirm: { type: "boolean" } }, ["confirm"]), { key: "confirm" });
      return result(accepted(answer, "confirm") === true ? `Deleted ${filename}` : `Kept ${filename}`);
    },
  );

  // tasks-mrtr-input (partial fulfillment): two questions at once, both outstanding together.
  server.tool(
    "multi_input",
    {
      description: "Asks two questions at once, then answers with both",
      inputSchema: NO_ARGUMENTS,
      execution: { taskSupport: "optional" },
    },
    async (_args, ctx) => {
      const fields = { name: { type: "string" }, confirm: { type: "boolean" } };
      const [first, second] = await Promise.all([
        ctx.elicitInput(form("First question: your name?", fields), { key: "first" }),
        ctx.elicitInput(form("Second question: your name?", fields), { key: "second" }),
      ]);
      return result(
        `First: ${accepted(first, "name") ?? `(${first.action})`}; second: ${accepted(second, "name") ?? `(${second.action})`}`,
      );
    },
  );

  // tasks-mrtr-composition: the name is asked in the request (an MRTR round, `task.prepare`), then the task runs with it.
  server.tool(
    "test_tool_with_task",
    {
      description: "Asks the user's name in the request (input key user_name), then greets them from a task",
      inputSchema: NO_ARGUMENTS,
      execution: { taskSupport: "required" },
      task: { prepare: (_args, ctx) => askName(ctx) },
    },
    async (_args, ctx) => result(`Hello from the task, ${ctx.task ? ctx.task.prepared : await askName(ctx)}!`),
  );
}
