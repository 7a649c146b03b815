// The client scenarios of @modelcontextprotocol/conformance 0.2.0-alpha.12 at revision 2026-07-28
// (`client --requirements 2026-07-28`), played by the fixture client through the ordinary MCPClient
// API: era "auto", so each connect probes with server/discover and stays in the stateless era.
// client.mjs picks a scenario from here by MCP_CONFORMANCE_SCENARIO (tools_call, shared with 0.1.16,
// lives there); the connect/close helper and the logging here serve the scenarios of both files.
import { MCPClient, StreamableHttpTransport } from "@suaveplan/mcp";

export const CLIENT_INFO = { name: "suaveplan-conformance-client", version: "1.0.0" };

export const log = (...parts) => console.error("[conformance-client]", ...parts);

export const textOf = (result) =>
  result.content
    ?.filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");

/**
 * How long "auto" waits for the answer to its server/discover probe. The suite's mocks live in the
 * CLI's own process, which in `--requirements` mode starts 39 mocks and spawns 39 clients at once: on
 * a small machine a mock's first answer can take seconds (over 3 s, the library's default, seen on 2
 * cores), and a probe given up on falls back to initialize, which a stateless mock refuses. The
 * session-era mocks of 0.1.16 answer the probe at once (with an error), so they cost nothing more.
 */
const PROBE_TIMEOUT_MS = 15_000;

/** The revision the suite runs the scenario at (0.2.x sets it; 0.1.16 does not). */
const SUITE_REVISION = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;

/**
 * Connects (era "auto"; the transport with `transportOptions`, e.g. an authorizing `fetchImpl`), runs `steps(client)`, always closes. When
 * the suite names its revision the
 * client must have settled on it: a fallback to the session era would fail the scenario's checks
 * with less telling messages.
 */
export async function session(url, options, steps, transportOptions = {}) {
  const client = new MCPClient(CLIENT_INFO, {
    probeTimeoutMs: PROBE_TIMEOUT_MS,
    onError: (error) => log("onError:", error.code ?? "", error.message),
    ...options,
  });
  client.on("toolDropped", ({ name, reason }) => log(`tool dropped: ${name}: ${reason}`));
  // Problems that fail no call (the GET stream giving up, a refused DELETE) are only logged.
  const transport = new StreamableHttpTransport(new URL(url), {
    onError: (error) => log("transport onError:", error.code ?? "", error.message),
    ...transportOptions,
  });
  const started = performance.now();
  const { era, protocolVersion } = await client.connect(transport);
  log(
    `connected in ${Math.round(performance.now() - started)} ms: ${client.serverInfo?.name} ${client.serverInfo?.version}, ` +
      `${era} era, protocol ${protocolVersion}`,
  );
  try {
    if (SUITE_REVISION !== undefined && protocolVersion !== SUITE_REVISION)
      throw new Error(`the suite runs at ${SUITE_REVISION}, the client settled on ${protocolVersion} (${era} era)`);
    await steps(client);
  } finally {
    await client.close();
    log("closed");
  }
}

/** Calls a tool and fails unless its text is `expected`. */
async function expectText(client, name, args, expected, options) {
  const result = await client.callTool(name, args, options);
  const text = textOf(result);
  log(`${name}: ${JSON.stringify(text)}`);
  if (result.isError || text !== expected)
    throw new Error(`${name} answered ${JSON.stringify(text)}${result.isError ? " (isError)" : ""}, expected ${JSON.stringify(expected)}`);
}

async function listedNames(client) {
  const tools = await client.listAllTools();
  const names = tools.map((tool) => tool.name);
  log(`tools/list: ${names.join(", ") || "(none)"}`);
  return names;
}

/** What the MRTR scenario's `confirm` form asks for, answered: a confirmed form. */
const CONFIRMED = { action: "accept", content: { confirmed: true } };

/** A host that has all three handlers, so every request's _meta declares roots, sampling and elicitation (as objects). */
const FULL_HOST = {
  roots: [{ uri: "file:///tmp/conformance", name: "conformance" }],
  sampling: () => ({ role: "assistant", content: { type: "text", text: "sampled" }, model: "conformance-stub" }),
  elicitation: { form: () => CONFIRMED },
};

export const scenarios2026 = {
  // SEP-2575: the first POST is refused with -32022 (listing the very version sent); the client tries
  // it once more, then every request carries the header and _meta (version, capabilities, client info).
  "request-metadata": (url) =>
    session(url, FULL_HOST, async (client) => {
      await listedNames(client);
    }),

  // SEP-2322 (MRTR): rounds of input answered and retried under a new id with requestState verbatim;
  // another call made between a round and its retry carries neither; a result without resultType is complete.
  "sep-2322-client-request-state": (url) =>
    session(
      url,
      {
        elicitation: {
          form: (params) => {
            log(`elicitation/create: ${params.message}`);
            return CONFIRMED;
          },
        },
      },
      async (client) => {
        await listedNames(client);
        // The round's answer is given by the call itself, after an unrelated call made in between.
        const betweenRounds = async ({ inputRequests, round }) => {
          log(`test_mrtr_echo_state round ${round}: ${Object.keys(inputRequests).join(", ")}`);
          await expectText(client, "test_mrtr_unrelated", {}, "unrelated-ok");
          return Object.fromEntries(Object.keys(inputRequests).map((key) => [key, CONFIRMED]));
        };
        await expectText(client, "test_mrtr_echo_state", {}, "echo-state-ok", { onInputRequired: betweenRounds });
        // No state handed out: the retry carries none; the elicitation handler answers.
        await expectText(client, "test_mrtr_no_state", {}, "no-state-ok");
        await expectText(client, "test_mrtr_no_result_type", {}, "no-result-type-test-ok");
      },
    ),

  // SEP-2243: Mcp-Method on every POST, Mcp-Name on tools/call, resources/read and prompts/get (the
  // first POST of each method is judged: one of each). No initialize in this era.
  "http-standard-headers": (url) =>
    session(url, {}, async (client) => {
      const tools = await listedNames(client);
      await client.callTool(tools[0], {});
      const { resources } = await client.listResources();
      log(`resources/list: ${resources.map((resource) => resource.uri).join(", ")}`);
      await client.readResource(resources[0].uri);
      const { prompts } = await client.listPrompts();
      log(`prompts/list: ${prompts.map((prompt) => prompt.name).join(", ")}`);
      await client.getPrompt(prompts[0].name);
    }),

  // SEP-2243: the calls the suite hands out in MCP_CONFORMANCE_CONTEXT; each annotated argument goes
  // out as Mcp-Param-<Name> (Base64-wrapped when not plain text, none for null), the others do not.
  "http-custom-headers": (url) =>
    session(url, {}, async (client) => {
      const { toolCalls } = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
      if (!Array.isArray(toolCalls) || toolCalls.length === 0) throw new Error("MCP_CONFORMANCE_CONTEXT names no toolCalls");
      await listedNames(client);
      for (const { name, arguments: args } of toolCalls) log(`${name}: ${textOf(await client.callTool(name, args))}`);
    }),

  // SEP-2243: tools whose x-mcp-header annotations are invalid are left out of the listing (toolDropped);
  // a host calls what it was given, here every tool still listed.
  "http-invalid-tool-headers": (url) =>
    session(url, {}, async (client) => {
      for (const name of await listedNames(client)) log(`${name}: ${textOf(await client.callTool(name, { region: "us-west1" }))}`);
    }),

  // SEP-2106: a listed inputSchema's $ref to a network URI is never fetched (the mock counts hits on it).
  "json-schema-ref-no-deref": (url) =>
    session(url, {}, async (client) => {
      const tools = await client.listAllTools();
      for (const tool of tools) log(`${tool.name} inputSchema: ${JSON.stringify(tool.inputSchema)}`);
    }),

  // SEP-1613/2106 (not scored): the tool's 2020-12 inputSchema comes back exactly as listed.
  "json-schema-2020-12-preservation": (url) =>
    session(url, {}, async (client) => {
      const tools = await client.listAllTools();
      const focal = tools.find((tool) => tool.name === "json_schema_2020_12_tool");
      if (!focal) throw new Error(`json_schema_2020_12_tool not listed (got ${tools.map((tool) => tool.name).join(", ")})`);
      log(`json_schema_echo: ${textOf(await client.callTool("json_schema_echo", { schema: focal.inputSchema }))}`);
    }),
};
