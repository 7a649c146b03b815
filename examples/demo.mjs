#!/usr/bin/env node
// The main job: starts the example weather server as a child process over stdio and walks the MCP
// surface with MCPClient, printing a short transcript. Run with `npm run demo` (builds first). The
// client finds the era by itself (the server speaks both: 2026-07-28, stateless); `-- --era session`
// or `-- --era stateless` tells it which to speak.
import { fileURLToPath } from "node:url";
import { MCPClient } from "@suaveplan/mcp";
import { spawnStdioServer } from "@suaveplan/mcp/node";

const serverScript = fileURLToPath(new URL("./weather-server.mjs", import.meta.url));
const step = (title) => console.log(`\n── ${title}`);
const show = (label, value) => console.log(`   ${label}: ${typeof value === "string" ? value : JSON.stringify(value)}`);

const eraFlag = process.argv.indexOf("--era");
const era = eraFlag === -1 ? "auto" : process.argv[eraFlag + 1];
if (!["auto", "session", "stateless"].includes(era)) throw new Error(`--era takes auto, session or stateless, not ${era}`);

const transport = await spawnStdioServer({ command: process.execPath, args: [serverScript] });
const client = new MCPClient({ name: "demo-host", version: "1.0.0" }, { era });
client.on("log", (message) => show(`log (${message.level})`, message.data));

step(`connect (era: ${era})`);
const chosen = await client.connect(transport);
show("server", `${client.serverInfo.title ?? client.serverInfo.name} ${client.serverInfo.version} (pid ${transport.pid})`);
show(
  "era",
  chosen.era === "stateless"
    ? "stateless (server/discover answered: every request carries its own _meta)"
    : "session (initialize handshake)",
);
show("revision", chosen.protocolVersion);
show("capabilities", Object.keys(client.serverCapabilities).join(", "));
show("instructions", client.instructions);

step("tools");
for (const tool of await client.listAllTools()) show(tool.name, tool.description);
await client.setLoggingLevel("info");
const forecast = await client.callTool(
  "forecast",
  { city: "Lyon", days: 3 },
  {
    onProgress: ({ progress, total, message }) => show("progress", `${progress}/${total} ${message}`),
  },
);
show("forecast", forecast.structuredContent);
const fahrenheit = await client.callTool("to_fahrenheit", { celsius: 21 });
show("to_fahrenheit(21)", fahrenheit.structuredContent);
const unknown = await client.callTool("forecast", { city: "Atlantis" });
show("forecast(Atlantis)", `isError=${String(unknown.isError)}: ${String(unknown.content[0].text)}`);

step("resources");
const [template] = await client.listAllResourceTemplates();
show("template", template.uriTemplate);
show(
  "listed",
  (await client.listAllResources())
    .map((resource) => resource.uri)
    .slice(0, 3)
    .join(", ") + ", …",
);
const today = await client.readResource("weather://cities/oslo/today");
show("read oslo", today.contents[0].text);
const cities = await client.complete({ type: "ref/resource", uri: template.uriTemplate }, { name: "city", value: "l" });
show("complete city 'l'", cities.completion.values);

step("prompts");
const prompt = await client.getPrompt("plan-trip", { city: "Lima", days: "2" });
show("plan-trip", prompt.messages[0].content.text);
const days = await client.complete({ type: "ref/prompt", name: "plan-trip" }, { name: "days", value: "" }, { arguments: { city: "Lima" } });
show("complete days", days.completion.values);

step("close");
await client.close();
const exit = await transport.exited;
show("server exited", `code ${exit.exitCode}`);
if (exit.exitCode !== 0) process.exitCode = 1;
