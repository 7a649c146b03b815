// The official reference server (@modelcontextprotocol/server-everything 2026.8.31, an SDK 1.x
// McpServer) as the stdio interop tests run it, and what it offers.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** Its entry; run with the argument "stdio". */
export const everythingServer = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
/** Its docs folder, each file a resource. */
export const everythingDocs = join(dirname(everythingServer), "docs");

/** What it offers a client that declares sampling and roots: its own tools, then the ones that depend on the client. */
export const EVERYTHING_TOOLS = [
  "echo",
  "get-annotated-message",
  "get-env",
  "get-resource-links",
  "get-resource-reference",
  "get-structured-content",
  "get-sum",
  "get-tiny-image",
  "gzip-file-as-resource",
  "toggle-simulated-logging",
  "toggle-subscriber-updates",
  "trigger-long-running-operation",
  "get-roots-list",
  "trigger-sampling-request",
  "simulate-research-query",
];

/** The files of its docs folder, each a resource. */
export const EVERYTHING_DOCS = [
  "architecture.md",
  "extension.md",
  "features.md",
  "how-it-works.md",
  "instructions.md",
  "startup.md",
  "structure.md",
];
