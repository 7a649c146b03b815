#!/usr/bin/env node
// The fixture client for the client scenarios of @modelcontextprotocol/conformance: those of 0.1.16
// (here) and those of 0.2.0-alpha.12 at revision 2026-07-28 (client-2026.mjs, with the helpers both use).
//
//   node conformance/client.mjs <server-url>          (MCP_CONFORMANCE_SCENARIO names the scenario)
//   npm run --silent conformance:client -- <server-url>
//
// The suite starts a mock server per scenario, runs this with the mock's URL as the last argument
// and judges what the mock saw. Exit status: 0 when the scenario's steps ran, 1 when one failed,
// 2 for a scenario this client does not play (the authorization extensions not built: see client-auth.mjs).
import { log, scenarios2026, session, textOf } from "./client-2026.mjs";
import { authScenarios } from "./client-auth.mjs";

/** The suite kills a client after 30 s (its --timeout); give up a little earlier, with a message. */
const DEADLINE_MS = Number(process.env.CONFORMANCE_CLIENT_DEADLINE_MS ?? 25_000);

const scenarios = {
  // The mock checks initialize's protocolVersion and clientInfo; it also answers tools/list.
  initialize: (url) =>
    session(url, {}, async (client) => {
      const { tools } = await client.listTools();
      log(`tools/list: ${tools.length} tool(s)`);
    }),

  // One tool, add_numbers(a, b); the mock records a check when it is called. 0.1.16: an SDK server
  // (session era); 2026-07-28: a stateless mock that also checks every message against the draft schema.
  tools_call: (url) =>
    session(url, {}, async (client) => {
      const { tools } = await client.listTools();
      if (!tools.some((tool) => tool.name === "add_numbers"))
        throw new Error(`add_numbers not listed (got ${tools.map((tool) => tool.name).join(", ")})`);
      const result = await client.callTool("add_numbers", { a: 5, b: 3 });
      log(`add_numbers(5, 3): ${textOf(result)}`);
      if (result.isError) throw new Error(`add_numbers failed: ${textOf(result)}`);
    }),

  // SEP-1034: the mock's tool elicits a form whose every field has a default; we accept with no
  // content at all and the client (applyDefaults) must fill the defaults in before answering.
  "elicitation-sep1034-client-defaults": (url) =>
    session(
      url,
      {
        elicitation: {
          form: (params) => {
            log(`elicitation/create: ${params.message}`);
            return { action: "accept", content: {} };
          },
          applyDefaults: true,
        },
      },
      async (client) => {
        const { tools } = await client.listTools();
        if (!tools.some((tool) => tool.name === "test_client_elicitation_defaults"))
          throw new Error("test_client_elicitation_defaults not listed");
        const result = await client.callTool("test_client_elicitation_defaults", {});
        log(`test_client_elicitation_defaults: ${textOf(result)}`);
      },
    ),

  // SEP-1699: the mock ends the tools/call SSE stream after a priming event (retry: 500); the
  // transport must wait `retry` ms, reconnect with GET + Last-Event-ID and get the result there.
  "sse-retry": (url) =>
    session(url, {}, async (client) => {
      const result = await client.callTool("test_reconnection", {});
      log(`test_reconnection: ${textOf(result)}`);
    }),

  ...scenarios2026,
  ...authScenarios,
};

async function main() {
  const url = process.argv.at(-1);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  if (!url || !/^https?:\/\//.test(url)) {
    log("usage: MCP_CONFORMANCE_SCENARIO=<scenario> node conformance/client.mjs <server-url>");
    return 2;
  }
  const run = scenarios[scenario];
  if (!run) {
    const why = scenario?.startsWith("auth/")
      ? "an authorization extension not built: DPoP, enterprise-managed, workload identity, private_key_jwt client credentials"
      : "unknown scenario";
    log(`scenario ${JSON.stringify(scenario)} is not played by this client (${why}); known: ${Object.keys(scenarios).join(", ")}`);
    return 2;
  }
  log(`scenario ${scenario} against ${url}`);
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`scenario ${scenario} did not finish within ${DEADLINE_MS} ms`)), DEADLINE_MS);
  });
  try {
    await Promise.race([run(url), deadline]);
    log(`scenario ${scenario}: done`);
    return 0;
  } finally {
    clearTimeout(timer);
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    log("failed:", error?.stack ?? error);
    if (error?.data !== undefined) log("error data:", JSON.stringify(error.data));
    process.exit(1);
  },
);
