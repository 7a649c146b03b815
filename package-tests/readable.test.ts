// The published code reads as the sources do: class and function names are shipped (the user's
// bundler minifies the application), so `constructor.name` and stack traces name our classes and
// methods; and every source map in the tarball carries the sources it points at (src/ is not shipped).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONSUMER, PACK_INFO, type PackInfo } from "./support/paths.js";

const INSTALLED = join(CONSUMER, "node_modules/@suaveplan/mcp");
const packedFiles = (): readonly string[] => (JSON.parse(readFileSync(PACK_INFO, "utf8")) as PackInfo).files;

interface SourceMap {
  readonly version: number;
  readonly sources: readonly string[];
  readonly sourcesContent?: readonly (string | null)[];
  readonly mappings: string;
}

describe("names and source maps of the installed tarball", () => {
  it("keeps class names, and a stack trace from inside callTool names MCPClient.callTool", () => {
    writeFileSync(
      join(CONSUMER, "names.mjs"),
      `import { MCPClient, MCPError, MCPServer } from "@suaveplan/mcp";
const client = new MCPClient({ name: "consumer", version: "1.0.0" }, { telemetry: null });
let thrown;
try {
  await client.callTool("hello");
} catch (error) {
  thrown = error;
}
console.log(JSON.stringify({
  client: client.constructor.name,
  server: new MCPServer({ name: "s", version: "1.0.0" }).constructor.name,
  errorClass: MCPError.name,
  thrownClass: thrown.constructor.name,
  thrownName: thrown.name,
  code: thrown.code,
  stack: thrown.stack,
}));
`,
    );
    const names = JSON.parse(execFileSync(process.execPath, ["names.mjs"], { cwd: CONSUMER, encoding: "utf8", timeout: 60_000 })) as Record<
      string,
      string
    >;
    expect(names).toMatchObject({
      client: "MCPClient",
      server: "MCPServer",
      errorClass: "MCPError",
      thrownClass: "MCPError",
      thrownName: "MCPError",
      code: "MCP.NOT_INITIALIZED",
    });
    const frames = (names.stack ?? "").split("\n").filter((line) => line.includes("/node_modules/@suaveplan/mcp/dist/"));
    expect(frames.some((line) => /\bat MCPClient\.callTool \(/.test(line))).toBe(true);
    // Every frame of ours names a function as written in src/: no one- or two-letter mangled name.
    expect(frames.filter((line) => /\bat (?:[#\w$]{1,2}|\w+\.[#\w$]{1,2}) \(/.test(line))).toEqual([]);
  });

  it("ships a map for every script, and each map embeds every source it names", () => {
    const files = packedFiles();
    const scripts = files.filter((file) => file.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(5);
    const unresolved: string[] = [];
    for (const script of scripts) {
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(INSTALLED, script), "utf8"))?.[1];
      // A chunk with no code of its own (a re-export) has no map, and says none.
      if (url === undefined) continue;
      const mapFile = join(script, "..", url);
      if (!files.includes(mapFile)) {
        unresolved.push(`${script}: its map ${mapFile} is not in the tarball`);
        continue;
      }
      const map = JSON.parse(readFileSync(join(INSTALLED, mapFile), "utf8")) as SourceMap;
      if (map.version !== 3 || map.sources.length === 0 || map.mappings === "") unresolved.push(`${mapFile}: not a usable map`);
      map.sources.forEach((source, index) => {
        const embedded = typeof map.sourcesContent?.[index] === "string" && map.sourcesContent[index] !== "";
        if (!embedded && !files.includes(join(mapFile, "..", source)))
          unresolved.push(`${mapFile}: ${source} neither embedded nor shipped`);
      });
    }
    expect(unresolved).toEqual([]);
    expect(files.filter((file) => file.endsWith(".js.map")).length).toBeGreaterThan(5);
  });
});
