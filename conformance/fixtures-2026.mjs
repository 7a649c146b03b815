// The fixtures only the 2026-07-28 server scenarios of @modelcontextprotocol/conformance 0.2.0-alpha.12
// touch, added to the one fixture server that also serves the 0.1.16 suite (createFixtureServer calls
// addStatelessEraFixtures last, so test_simple_text stays the first tool listed).
//
// Every input (elicitation, sampling, roots) goes through ctx.elicitInput / ctx.createMessage /
// ctx.listRoots: in a 2025 session they are real requests to the client; in the stateless era an
// unanswered one turns the request into an `input_required` round and the handler runs again, from the
// start, once the client answers. Inputs awaited together (Promise.all) are asked in one round,
// sequential awaits in several. The server seals `requestState` and checks answers itself.
//
// The tasks-* scenarios' tools are in fixtures-tasks.mjs, added last.
//
// Names, keys, texts and schemas follow what the suite's scenarios send and check (the "used by"
// comment on each names the scenario).

import { addTasksFixtures } from "./fixtures-tasks.mjs";

const NO_ARGUMENTS = { type: "object", properties: {} };
/** The configuration of a tool without arguments. */
const noArguments = (description) => ({ description, inputSchema: NO_ARGUMENTS });
const text = (value) => ({ type: "text", text: value });
const result = (value) => ({ content: [text(value)] });

/** An elicitation form asking for string fields, all required. */
const askFor = (message, fields) => ({
  message,
  requestedSchema: { type: "object", properties: Object.fromEntries(fields.map((field) => [field, { type: "string" }])), required: fields },
});
const CONFIRM = {
  message: "Please confirm to continue.",
  requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
};
const askModel = (question, maxTokens) => ({ messages: [{ role: "user", content: text(question) }], maxTokens });

/** What the user answered, in words: the accepted content, or the action when they declined or cancelled. */
const describeElicitation = (answer) => (answer.action === "accept" ? JSON.stringify(answer.content ?? {}) : `(${answer.action})`);
/** The first text block of a sampling answer (one block, or an array of them since 2025-11-25). */
const samplingText = (answer) => {
  const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
  const found = blocks.find((block) => block?.type === "text")?.text;
  return typeof found === "string" ? found : "(no text)";
};
const acceptedField = (answer, field) =>
  answer.action === "accept" && typeof answer.content?.[field] === "string" ? answer.content[field] : undefined;

/** Registers the 2026-07-28 fixtures on `server` (after everything the 0.1.16 suite needs). */
export function addStatelessEraFixtures(server) {
  addStatelessDiagnosticTools(server);
  addListChangeTriggers(server);
  addInputRequiredTools(server);
  addMultiInputTools(server);
  addHeaderTools(server);
  addInputRequiredPrompt(server);
  addTasksFixtures(server);
}

/** server-stateless: the tools its raw probes call. */
function addStatelessDiagnosticTools(server) {
  // Asks the client's model; a request that declared no `sampling` capability is refused by the server (-32021).
  server.tool(
    "test_missing_capability",
    noArguments("Asks the client's model a question, so it needs the sampling capability (SEP-2575 undeclared-capability probe)"),
    async (_args, ctx) =>
      result(`The model said: ${samplingText(await ctx.createMessage(askModel("Say hello.", 50), { key: "sampling_request" }))}`),
  );

  // Asks for an elicitation: in the stateless era that is an input_required answer, never a request on the response stream.
  server.tool(
    "test_streaming_elicitation",
    noArguments("Asks the user to confirm; the request is answered with input_required, not with a request on its response stream"),
    async (_args, ctx) => result(`Confirmation: ${describeElicitation(await ctx.elicitInput(CONFIRM, { key: "confirmation" }))}`),
  );

  // Logs one info message: it reaches the client only if the request asked for a log level.
  server.tool(
    "test_logging_tool",
    noArguments("Logs one info message, then answers (no message unless the request set a log level)"),
    async (_args, ctx) => {
      await ctx.log("info", "test_logging_tool ran", "conformance-fixture");
      return result("Logged one info message.");
    },
  );
}

/** server-stateless (subscriptions/listen): tools whose call changes a list, so list_changed goes out to subscribers. */
function addListChangeTriggers(server) {
  // Added and removed in the same tick: the lists end as they were, and one list_changed goes out.
  const transientTool = noArguments("A tool that exists only for an instant (test_trigger_tool_change)");
  const transientPrompt = { description: "A prompt that exists only for an instant (test_trigger_prompt_change)" };
  server.tool(
    "test_trigger_tool_change",
    noArguments("Adds a tool and removes it again, so notifications/tools/list_changed goes out"),
    () => {
      server.tool("test_transient_tool", transientTool, () => result("transient")).remove();
      return result("The tool list changed.");
    },
  );
  server.tool(
    "test_trigger_prompt_change",
    noArguments("Adds a prompt and removes it again, so notifications/prompts/list_changed goes out"),
    () => {
      server.prompt("test_transient_prompt", transientPrompt, () => ({ messages: [] })).remove();
      return result("The prompt list changed.");
    },
  );
}

/** input-required-result-* (SEP-2322): one input each. */
function addInputRequiredTools(server) {
  // basic-elicitation, missing-input-response, result-type, ignore-extra-params, validate-input: the key must be user_name.
  server.tool(
    "test_input_required_result_elicitation",
    noArguments("Asks the user's name (input key user_name), then greets them"),
    async (_args, ctx) => {
      const answer = await ctx.elicitInput(askFor("What is your name?", ["name"]), { key: "user_name" });
      const name = acceptedField(answer, "name");
      return result(name === undefined ? `No name given (${answer.action}).` : `Hello, ${name}!`);
    },
  );

  // basic-sampling
  server.tool(
    "test_input_required_result_sampling",
    noArguments("Asks the client's model a question (sampling/createMessage), then reports its answer"),
    async (_args, ctx) => {
      const answer = await ctx.createMessage(askModel("What is the capital of France?", 100), { key: "capital_question" });
      return result(`The model said: ${samplingText(answer)}`);
    },
  );

  // basic-list-roots
  server.tool(
    "test_input_required_result_list_roots",
    noArguments("Asks the client for its roots (roots/list), then counts them"),
    async (_args, ctx) => {
      const { roots } = await ctx.listRoots({ key: "client_roots" });
      return result(`Found ${roots.length} root(s): ${roots.map((root) => root.uri).join(", ")}`);
    },
  );

  // request-state: the answer comes back with the requestState the server sealed in round one.
  server.tool(
    "test_input_required_result_request_state",
    noArguments("Asks for a confirmation; the retry carries the round's requestState"),
    async (_args, ctx) => {
      const answer = await ctx.elicitInput(CONFIRM, { key: "confirm" });
      const how = ctx.era === "stateless" ? "requestState validated" : "answered within the session";
      return result(`state-ok: confirmation ${describeElicitation(answer)} (${how})`);
    },
  );

  // tampered-state: the server seals every requestState, so a tampered one is refused before this runs again.
  server.tool(
    "test_input_required_result_tampered_state",
    noArguments("Asks for a confirmation; a retry with a tampered requestState is refused"),
    async (_args, ctx) => result(`Confirmation: ${describeElicitation(await ctx.elicitInput(CONFIRM, { key: "confirm" }))}`),
  );
}

/** input-required-result-* (SEP-2322): several inputs, in one round or in several. */
function addMultiInputTools(server) {
  // multiple-input-requests: three inputs asked together, so one round carries all three.
  server.tool(
    "test_input_required_result_multiple_inputs",
    noArguments("Asks for the user's name, a greeting from the model and the client's roots, all in one round"),
    async (_args, ctx) => {
      const [user, greeting, { roots }] = await Promise.all([
        ctx.elicitInput(askFor("What is your name?", ["name"]), { key: "user_name" }),
        ctx.createMessage(askModel("Write a one-line greeting.", 50), { key: "greeting" }),
        ctx.listRoots({ key: "client_roots" }),
      ]);
      return result(`Name: ${describeElicitation(user)}; greeting: ${samplingText(greeting)}; roots: ${roots.length}`);
    },
  );

  // multi-round: the second question is asked only once the first is answered, so two rounds, two states.
  server.tool(
    "test_input_required_result_multi_round",
    noArguments("Asks the user's name, then (a second round) their favourite colour"),
    async (_args, ctx) => {
      const name = await ctx.elicitInput(askFor("What is your name?", ["name"]), { key: "step1" });
      const color = await ctx.elicitInput(askFor("What is your favourite colour?", ["color"]), { key: "step2" });
      return result(`Name: ${describeElicitation(name)}; colour: ${describeElicitation(color)}`);
    },
  );

  // capability-check: asks only for what the request's client declared (a sampling-only client gets a sampling-only round).
  server.tool(
    "test_input_required_result_capabilities",
    noArguments("Asks the client only for the inputs its declared capabilities allow (sampling, elicitation, roots)"),
    async (_args, ctx) => {
      const declared = ctx.client?.capabilities ?? {};
      const asks = [];
      if (declared.sampling) {
        asks.push(
          ctx.createMessage(askModel("Say hello.", 50), { key: "sampling_request" }).then((answer) => `model: ${samplingText(answer)}`),
        );
      }
      if (declared.elicitation) {
        const question = askFor("What is your name?", ["name"]);
        asks.push(ctx.elicitInput(question, { key: "elicitation_request" }).then((answer) => `user: ${describeElicitation(answer)}`));
      }
      if (declared.roots) asks.push(ctx.listRoots({ key: "roots_request" }).then(({ roots }) => `roots: ${roots.length}`));
      if (asks.length === 0) return result("The client declared none of sampling, elicitation and roots: nothing to ask.");
      return result((await Promise.all(asks)).join("; "));
    },
  );
}

// json-schema-2020-12 (pending at 2026-07-28; also 0.1.16's pending scenario): every keyword must survive tools/list.
export const JSON_SCHEMA_2020_12_INPUT = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: { $anchor: "addressDef", type: "object", properties: { street: { type: "string" }, city: { type: "string" } } },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

/** http-custom-header-server-validation (pending, SEP-2243): a string argument mirrored in a header. */
function addHeaderTools(server) {
  // The server checks Mcp-Param-Region against arguments.region (Base64 form or literal) before this runs.
  server.tool(
    "test_custom_header",
    {
      description: "Echoes its region argument, which the client also sends in the Mcp-Param-Region header (SEP-2243 x-mcp-header)",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", description: "A region name, mirrored in the Mcp-Param-Region header", "x-mcp-header": "Region" },
        },
        required: ["region"],
      },
    },
    ({ region }) => result(`Region: ${region}`),
  );
}

/** input-required-result-non-tool-request: input_required answers prompts/get too. */
function addInputRequiredPrompt(server) {
  server.prompt(
    "test_input_required_result_prompt",
    {
      title: "Prompt Asking For Context",
      description: "Asks the user for the context to use (input key user_context), then builds the prompt",
    },
    async (_args, ctx) => {
      const answer = await ctx.elicitInput(askFor("What context should the prompt use?", ["context"]), { key: "user_context" });
      return {
        messages: [{ role: "user", content: text(`Prompt with context: ${acceptedField(answer, "context") ?? `(${answer.action})`}`) }],
      };
    },
  );
}
