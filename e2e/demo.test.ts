// `npm run demo` (after its build): the example weather server in a child process, walked by
// MCPClient. It finds the stateless era by itself and can be told to speak the session era; the walk
// prints the same transcript in both, apart from the era it names.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const demo = fileURLToPath(new URL("../examples/demo.mjs", import.meta.url));
const run = promisify(execFile);

async function transcript(...args: string[]): Promise<string[]> {
  const { stdout } = await run(process.execPath, [demo, ...args], { timeout: 30_000 });
  // The server's pid differs from run to run.
  return stdout.replace(/\(pid \d+\)/, "(pid N)").split("\n");
}

describe("the demo", () => {
  it("speaks the era it finds, or the one it is told, and walks the same surface in both", async () => {
    const [found, session] = await Promise.all([transcript(), transcript("--era", "session")]);
    expect(found.slice(1, 5)).toEqual([
      "── connect (era: auto)",
      "   server: Weather (example) 1.0.0 (pid N)",
      "   era: stateless (server/discover answered: every request carries its own _meta)",
      "   revision: 2026-07-28",
    ]);
    expect(session.slice(1, 5)).toEqual([
      "── connect (era: session)",
      "   server: Weather (example) 1.0.0 (pid N)",
      "   era: session (initialize handshake)",
      "   revision: 2025-11-25",
    ]);
    expect(found.slice(5)).toEqual(session.slice(5));
    expect(found).toContain('   log (info): {"tool":"forecast","city":"Lyon","days":3}');
    expect(found.at(-2)).toBe("   server exited: code 0");
  });

  it("refuses an era it does not know", async () => {
    await expect(run(process.execPath, [demo, "--era", "modern"], { timeout: 30_000 })).rejects.toMatchObject({
      stderr: expect.stringContaining("--era takes auto, session or stateless, not modern"),
    });
  });
});
