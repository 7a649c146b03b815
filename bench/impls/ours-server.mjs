// Our bench server (the echo tool and a `cpu` tool reporting this process's CPU time), on the server
// entry: a server child loads none of the client's code, as a user's server would.
import * as z from "zod";
import { MCPServer } from "@suaveplan/mcp/server";
import { cpuResult } from "./limit.mjs";

export function oursServer() {
  const server = new MCPServer({ name: "bench", version: "1.0.0" });
  server.tool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
  server.tool("cpu", {}, () => cpuResult());
  return server;
}
