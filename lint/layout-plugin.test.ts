import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

import layout, { type LayoutContext } from "./layout-plugin.mjs";

const rule = layout.rules["max-line-length"];
const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The diagnostics of the rule on `code` (options as .oxlintrc.json would give them). */
function check(code: string, options: unknown[] = []) {
  const reports: Array<{ line: number; column: number; endColumn: number; message: string }> = [];
  const context: LayoutContext = {
    options,
    sourceCode: { lines: code.split("\n") },
    report: ({ loc, message }) => reports.push({ line: loc.start.line, column: loc.start.column, endColumn: loc.end.column, message }),
  };
  rule.create(context).Program();
  return reports;
}

/** A statement of exactly `width` characters: `const s = "…";` around `fill` repeated. */
const lineOf = (width: number, fill = "x") => `const s = "${fill.repeat(width - 13)}";`;

describe("suave-layout/max-line-length", () => {
  it("lets a line of 140 characters pass and reports one of 141 from its 141st character, naming both widths", () => {
    expect(check(lineOf(140))).toEqual([]);
    expect(check(`const a = 1;\n${lineOf(141)}\nconst b = 2;`)).toEqual([
      {
        line: 2,
        column: 140,
        endColumn: 141,
        message:
          "This line is 141 characters long, over 140: split the string or template literal with +, " +
          "build a long regular expression from parts, shorten a test title, or wrap the comment.",
      },
    ]);
  });

  it("reports every long line once, whatever it holds: a comment, a template literal, a regular expression", () => {
    const lines = [
      `// ${"a comment ".repeat(20)}`,
      "const ok = 1;",
      `const t = \`${"${a} and ".repeat(20)}\`;`,
      `const r = /${"(ab|cd)+".repeat(20)}/;`,
    ];
    expect(check(lines.join("\n")).map(({ line, message }) => [line, message.slice(0, 34)])).toEqual([
      [1, "This line is 203 characters long, "],
      [3, "This line is 193 characters long, "],
      [4, "This line is 173 characters long, "],
    ]);
  });

  it("counts characters, not UTF-16 units, and puts the columns in UTF-16 units as a loc wants them", () => {
    expect(check(lineOf(140, "🙂"))).toEqual([]);
    const [report] = check(lineOf(141, "🙂"));
    // The first 140 characters: `const s = "` (11 units), 128 emoji of 2 units each, the closing quote; `;` is the 141st.
    expect(report).toMatchObject({ line: 1, column: 11 + 2 * 128 + 1, endColumn: lineOf(141, "🙂").length });
    expect(report?.message).toMatch(/^This line is 141 characters long, over 140: /);
  });

  it("takes another maximum as its option", () => {
    expect(check(lineOf(80), [80])).toEqual([]);
    expect(check(lineOf(81), [80]).map(({ message }) => message.slice(0, 40))).toEqual(["This line is 81 characters long, over 80"]);
  });
});

/** Runs oxlint (without type information, which this rule does not need) with .oxlintrc.json on the files. */
async function lint(...files: string[]): Promise<Array<{ code: string; filename: string; message: string }>> {
  const oxlint = join(ROOT, "node_modules", ".bin", "oxlint");
  const run = await promisify(execFile)(oxlint, ["-c", join(ROOT, ".oxlintrc.json"), "--format", "json", ...files], {
    cwd: ROOT,
  }).catch((failed: { stdout: string }) => failed);
  return (JSON.parse(run.stdout) as { diagnostics: Array<{ code: string; filename: string; message: string }> }).diagnostics;
}

describe("the rule in this repository's lint configuration", () => {
  const scratch = mkdtemp(join(tmpdir(), "layout-"));
  afterAll(async () => rm(await scratch, { recursive: true, force: true }));

  it("fails a code file with a line over 140 characters, and leaves the generated wire tables alone", async () => {
    const file = join(await scratch, "long.ts");
    await writeFile(file, `export const a = 1;\nexport ${lineOf(150)}\n`);
    const diagnostics = await lint(file, "src/wire/wire-tables.generated.ts");
    expect(diagnostics.filter(({ code }) => code.includes("max-line-length"))).toEqual([
      expect.objectContaining({ code: "suave-layout(max-line-length)", message: expect.stringMatching(/^This line is 157 characters/) }),
    ]);
  }, 60_000);
});
