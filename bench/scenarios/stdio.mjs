// The server as a child process over stdio: ours (spawnStdioServer + serveStdio), the SDKs' stdio
// transports, and the limit (a child that echoes JSON lines). The child's CPU time is read with a
// `cpu` tool before and after each run and added to this process's.
import { fileURLToPath } from "node:url";
import { limitStdio } from "../impls/limit.mjs";
import { oursStdio } from "../impls/ours.mjs";
import { sdk1Stdio } from "../impls/sdk1.mjs";
import { sdk2Stdio } from "../impls/sdk2.mjs";

const script = (name) => fileURLToPath(new URL(`../servers/${name}-stdio.mjs`, import.meta.url));

export const STDIO = {
  ours: () => oursStdio(script("ours")),
  sdk1: () => sdk1Stdio(script("sdk1")),
  sdk2: () => sdk2Stdio(script("sdk2")),
  limit: () => limitStdio(script("limit")),
};

/** The same, with our child's echo tool taking a JSON Schema: a server that uses no zod loads none. */
export const STDIO_JSON_SCHEMA_TOOL = { ...STDIO, ours: () => oursStdio(script("ours-json-schema")) };
