// Ours as a stdio server child whose echo tool takes a JSON Schema instead of a zod schema: a server
// that uses no zod loads none (the protocol's own validation needs none).
import { MCPServer } from "@suaveplan/mcp/server";
import { serveStdio } from "@suaveplan/mcp/node";
import { cpuResult } from "../impls/limit.mjs";

const server = new MCPServer({ name: "bench", version: "1.0.0" });
const echoInput = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
server.tool("echo", { inputSchema: echoInput }, ({ text }) => ({ content: [{ type: "text", text }] }));
server.tool("cpu", {}, () => cpuResult());
await serveStdio(server);
