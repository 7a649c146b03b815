// Bundles a small app for the browser with Vite, from the consumer project where the packed tarball
// is installed (so it resolves "@suaveplan/mcp" as a user's bundler does), and reports what went in.
import { builtinModules } from "node:module";
import { gzipSync } from "node:zlib";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { build, type Plugin, type Rollup } from "vite";
import { CONSUMER } from "./paths.js";

export interface Bundle {
  readonly code: string;
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
  /** Every module in the bundle, relative to the consumer project. */
  readonly modules: readonly string[];
  /** Every import specifier the bundler was asked to resolve. */
  readonly requested: readonly string[];
  /**
   * With `split`: what the app loads before any of its dynamic imports runs (the entry chunk and the
   * chunks it imports statically), minified and gzipped file by file, as a browser fetches them.
   */
  readonly firstLoad?: { readonly minifiedBytes: number; readonly gzipBytes: number };
}

const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
export const isNodeBuiltin = (specifier: string): boolean =>
  specifier.startsWith("node:") || NODE_BUILTINS.has(specifier) || NODE_BUILTINS.has(specifier.split("/")[0] ?? "");

/** The gzip the budget speaks of: level 9, as servers and size tools commonly report. */
export const gzipSize = (code: string): number => gzipSync(code, { level: 9 }).length;

export async function bundle(
  name: string,
  source: string,
  { minify = true, external = [] as RegExp[], dir = join(CONSUMER, "apps"), split = false } = {},
): Promise<Bundle> {
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, `${name}.mjs`);
  writeFileSync(entry, source);
  const requested: string[] = [];
  const record: Plugin = {
    name: "record-imports",
    enforce: "pre",
    resolveId(specifier) {
      requested.push(specifier);
      return null;
    },
  };
  const output = (await build({
    configFile: false,
    root: CONSUMER,
    logLevel: "silent",
    plugins: [record],
    build: {
      write: false,
      target: "es2022",
      minify,
      sourcemap: false,
      copyPublicDir: false,
      lib: { entry, formats: ["es"], fileName: () => `${name}.js` },
      // One file, as the sizes are of the whole app (the library loads its schemas with a dynamic import); with `split`, the
      // dynamic imports in chunks of their own, to tell the first load from what loads on demand.
      rollupOptions: { external, output: { codeSplitting: split } },
    },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const chunks = (Array.isArray(output) ? output.flatMap((item) => item.output) : output.output).filter(
    (item): item is Rollup.OutputChunk => item.type === "chunk",
  );
  const code = chunks.map((chunk) => chunk.code).join("\n");
  const modules = [...new Set(chunks.flatMap((chunk) => chunk.moduleIds))].map((id) => relative(CONSUMER, id));
  const whole = { code, minifiedBytes: Buffer.byteLength(code), gzipBytes: gzipSize(code), modules, requested };
  return split ? { ...whole, firstLoad: firstLoadOf(chunks) } : whole;
}

/** The entry chunk and every chunk it reaches by static imports. */
function firstLoadOf(chunks: readonly Rollup.OutputChunk[]): { minifiedBytes: number; gzipBytes: number } {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const loaded = new Set<Rollup.OutputChunk>();
  const pending = chunks.filter((chunk) => chunk.isEntry);
  for (let chunk = pending.pop(); chunk !== undefined; chunk = pending.pop()) {
    if (loaded.has(chunk)) continue;
    loaded.add(chunk);
    for (const name of chunk.imports) {
      const imported = byName.get(name);
      if (imported) pending.push(imported);
    }
  }
  let minifiedBytes = 0;
  let gzipBytes = 0;
  for (const chunk of loaded) {
    minifiedBytes += Buffer.byteLength(chunk.code);
    gzipBytes += gzipSize(chunk.code);
  }
  return { minifiedBytes, gzipBytes };
}

/** (a) a browser host: a client and the Streamable HTTP transport, nothing else imported. */
export const CLIENT_APP = `import { MCPClient, StreamableHttpTransport } from "@suaveplan/mcp";
export async function connect(url) {
  const client = new MCPClient({ name: "app", version: "1.0.0" });
  await client.connect(new StreamableHttpTransport(url));
  return client;
}
`;

/** (c) the client alone: `MCPClient` and the in-process transport (no HTTP client code). */
export const CLIENT_ONLY_APP = `import { MCPClient, InMemoryTransport } from "@suaveplan/mcp";
export async function connect() {
  const [clientSide] = InMemoryTransport.pair();
  const client = new MCPClient({ name: "app", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}
`;

/** (b) an edge/worker server: a server with one tool, served by the web-standard handler. */
export const SERVER_APP = `import * as z from "zod";
import { MCPServer, streamableHttpHandler } from "@suaveplan/mcp";
const server = new MCPServer({ name: "edge", version: "1.0.0" });
server.tool("add", { inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => ({
  content: [{ type: "text", text: String(a + b) }],
}));
export default streamableHttpHandler(server);
`;

/** Everything the universal entry has, for reference (not budgeted: no app imports all of it). */
export const EVERYTHING_APP = `export * from "@suaveplan/mcp";\n`;

/** The official SDK (2.x split packages, from this repository's devDependencies), the same two apps,
 * bundled the same way: the live reference the budget is compared with. */
export const SDK_CLIENT_APP = `import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
export async function connect(url) {
  const client = new Client({ name: "app", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}
`;

export const SDK_SERVER_APP = `import * as z from "zod";
import { McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
const server = new McpServer({ name: "edge", version: "1.0.0" });
server.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
  content: [{ type: "text", text: String(a + b) }],
}));
const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID() });
await server.connect(transport);
export default { fetch: (request) => transport.handleRequest(request) };
`;
