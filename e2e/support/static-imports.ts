// What the module loader loads from a source file: its static imports, followed from file to file.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

// Value imports and re-exports (not `import type` / `export type`), across lines, and bare imports for
// their side effects (`import "zod"` loads zod too); dynamic import() is not one.
export const STATIC_IMPORT = /^(?:import|export)\s+(?!type\b)(?:[^;]*?\sfrom\s*)?["']([^"']+)["']/gms;

/** The source files `entry` loads (itself included) and the packages they import, by static imports. */
export function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
      if (specifier === undefined) continue;
      if (specifier.startsWith(".")) pending.push(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else packages.add(specifier);
    }
  }
  return { files, packages };
}
