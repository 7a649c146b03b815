// `node mutation/carry-across-format.mjs <before> <after>`: carries the incremental results in
// mutation/incremental/ across a commit that only reformatted code (prettier). Stryker's own diff sees
// every reformatted test file as changed (our test runner reports no test locations) and would test
// every mutant again; a formatting commit changes no behaviour, so each result still holds where its
// code went. A mutant's location is mapped token by token (comments aside) from <before>'s text to
// <after>'s; a mutant whose tokens are not all found unchanged and in order (prettier added a comma or
// a parenthesis inside it) is dropped and tested again. Records of files whose source is not exactly
// <before>'s are left alone. Checked once against a fresh run (module proxy: 183 of 183 the same).
// @babel/parser and diff-match-patch come with Stryker.
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { parse } from "@babel/parser";
import DiffMatchPatch from "diff-match-patch";

const DIR = "mutation/incremental";
const [before, after] = process.argv.slice(2);

function show(rev, path) {
  try {
    return execFileSync("git", ["show", `${rev}:${path}`], { encoding: "utf8", maxBuffer: 1 << 28 });
  } catch {
    return undefined;
  }
}

function tokensOf(text, path) {
  const plugins = /\.m?ts$/.test(path) ? ["typescript"] : [];
  const ast = parse(text, { sourceType: "module", plugins, tokens: true, errorRecovery: true });
  return ast.tokens
    .filter((token) => token.type !== "CommentLine" && token.type !== "CommentBlock")
    .map((token) => ({ start: token.start, end: token.end, text: text.slice(token.start, token.end) }));
}

/** For each token of `a`, the index of the same token in `b`, or -1 (a diff of the token texts). */
function align(a, b) {
  const codes = new Map();
  const encode = (tokens) =>
    tokens
      .map(({ text }) => {
        if (!codes.has(text)) codes.set(text, String.fromCharCode(codes.size + 256));
        return codes.get(text);
      })
      .join("");
  const dmp = new DiffMatchPatch();
  dmp.Diff_Timeout = 0;
  const map = new Int32Array(a.length).fill(-1);
  let i = 0;
  let j = 0;
  for (const [op, chars] of dmp.diff_main(encode(a), encode(b), false)) {
    if (op === 0) for (let k = 0; k < chars.length; k++) map[i + k] = j + k;
    if (op !== 1) i += chars.length;
    if (op !== -1) j += chars.length;
  }
  return map;
}

function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  return starts;
}
// Stryker's locations: lines and columns from 1, the end exclusive.
const offsetOf = (starts, { line, column }) => starts[line - 1] + column - 1;
function positionOf(starts, offset) {
  let line = starts.findLastIndex((start) => start <= offset);
  return { column: offset - starts[line] + 1, line: line + 1 };
}

function carryFile(file, oldText, newText, path) {
  const a = tokensOf(oldText, path);
  const b = tokensOf(newText, path);
  const map = align(a, b);
  const byStart = new Map(a.map((token, k) => [token.start, k]));
  const byEnd = new Map(a.map((token, k) => [token.end, k]));
  const [oldStarts, newStarts] = [lineStarts(oldText), lineStarts(newText)];
  const kept = [];
  for (const mutant of file.mutants) {
    const i = byStart.get(offsetOf(oldStarts, mutant.location.start));
    const j = byEnd.get(offsetOf(oldStarts, mutant.location.end));
    if (i === undefined || j === undefined || j < i || map[i] < 0) continue;
    let intact = true;
    for (let k = i; k <= j && intact; k++) intact = map[k] === map[i] + (k - i);
    if (!intact) continue;
    const location = { end: positionOf(newStarts, b[map[j]].end), start: positionOf(newStarts, b[map[i]].start) };
    kept.push({ ...mutant, location });
  }
  const dropped = file.mutants.length - kept.length;
  Object.assign(file, { mutants: kept, source: newText });
  return dropped;
}

const totals = { mutants: 0, dropped: 0, testFiles: 0 };
for (const name of readdirSync(DIR).filter((entry) => entry.endsWith(".json"))) {
  const report = JSON.parse(readFileSync(`${DIR}/${name}`, "utf8"));
  for (const [path, file] of Object.entries(report.files)) {
    const [oldText, newText] = [show(before, path), show(after, path)];
    if (oldText === undefined || newText === undefined || file.source !== oldText) continue;
    totals.mutants += file.mutants.length;
    totals.dropped += carryFile(file, oldText, newText, path);
  }
  for (const [path, file] of Object.entries(report.testFiles ?? {})) {
    const [oldText, newText] = [show(before, path), show(after, path)];
    if (oldText === undefined || newText === undefined || file.source !== oldText) continue;
    file.source = newText;
    totals.testFiles++;
  }
  writeFileSync(`${DIR}/${name}`, JSON.stringify(report, null, 2));
}
console.log(`carried ${totals.mutants - totals.dropped} of ${totals.mutants} mutants' results and ${totals.testFiles} test files`);
