// A test harness small enough to run unchanged on Node, Bun, Deno and in a browser page: no
// dependency, no node:* module, no global beyond the web platform's. Tests run one after another,
// each bounded by a timeout; assertions are counted; the report ends with the plain line
// "N passed, N failed" that CI reads.

export class AssertionError extends Error {
  name = "AssertionError";
}

const show = (value) => {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
};

/** Deep equality of JSON-like values (what MCP messages are). */
export function deepEqual(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.prototype.hasOwnProperty.call(b, key) && deepEqual(a[key], b[key]));
}

/** `actual` holds everything `expected` has (objects: those keys; arrays: same length, item by item). */
export function matches(actual, expected) {
  if (typeof expected !== "object" || expected === null) return Object.is(actual, expected);
  if (typeof actual !== "object" || actual === null) return false;
  if (Array.isArray(expected))
    return Array.isArray(actual) && actual.length === expected.length && expected.every((item, i) => matches(actual[i], item));
  return Object.keys(expected).every((key) => matches(actual[key], expected[key]));
}

export function createHarness({ log = (line) => console.log(line), defaultTimeoutMs = 15_000, filter = "" } = {}) {
  const tests = [];
  let assertions = 0;

  const check = (ok, message) => {
    assertions++;
    if (!ok) throw new AssertionError(message);
  };

  const t = {
    ok: (value, message = "expected a truthy value") => check(Boolean(value), `${message} (got ${show(value)})`),
    equal: (actual, expected, message = "") =>
      check(Object.is(actual, expected), `${message} expected ${show(expected)}, got ${show(actual)}`),
    deepEqual: (actual, expected, message = "") =>
      check(deepEqual(actual, expected), `${message} expected ${show(expected)}, got ${show(actual)}`),
    match: (actual, expected, message = "") =>
      check(matches(actual, expected), `${message} expected to match ${show(expected)}, got ${show(actual)}`),
    async resolves(promise, expected, message = "") {
      const value = await promise;
      if (expected !== undefined) t.match(value, expected, message);
      else check(true, "");
      return value;
    },
    async rejects(promise, expected, message = "") {
      let settled = false;
      let error;
      try {
        await promise;
        settled = true;
      } catch (caught) {
        error = caught;
      }
      check(!settled, `${message} expected a rejection, but it resolved`);
      if (expected !== undefined) t.match(error, expected, message);
      return error;
    },
    /** Polls `predicate` until it holds, at most `timeoutMs` (then fails with `message`). */
    async waitFor(predicate, message = "condition", { timeoutMs = 5000, intervalMs = 5 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        let last;
        try {
          if (await predicate()) return check(true, "");
        } catch (error) {
          last = error;
        }
        if (Date.now() > deadline)
          return check(false, `timed out after ${timeoutMs} ms waiting for ${message}${last ? `: ${last.message}` : ""}`);
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    },
  };

  return {
    test(name, fn, { timeoutMs = defaultTimeoutMs } = {}) {
      if (!filter || name.includes(filter)) tests.push({ name, fn, timeoutMs });
    },
    /** Runs every registered test in order; resolves to `{ passed, failed, assertions, failures }`. */
    async run(label) {
      let passed = 0;
      const failures = [];
      const started = Date.now();
      for (const { name, fn, timeoutMs } of tests) {
        const before = assertions;
        const cleanups = [];
        let timer;
        const testStart = Date.now();
        try {
          await Promise.race([
            fn(t, (cleanup) => cleanups.push(cleanup)),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
            }),
          ]);
          passed++;
          log(`  ok   ${name} (${assertions - before} assertions, ${Date.now() - testStart} ms)`);
        } catch (error) {
          failures.push({ name, error: String(error?.stack ?? error) });
          log(`  FAIL ${name}: ${error?.message ?? error}`);
          if (error?.stack) log(String(error.stack).split("\n").slice(1, 6).join("\n"));
        } finally {
          clearTimeout(timer);
          for (const cleanup of cleanups.toReversed()) {
            try {
              await cleanup();
            } catch (error) {
              log(`  (cleanup of "${name}" failed: ${error?.message ?? error})`);
            }
          }
        }
      }
      const failed = failures.length;
      log(`${label}: ${assertions} assertions in ${tests.length} tests, ${Date.now() - started} ms`);
      log(`${passed} passed, ${failed} failed`);
      return { passed, failed, assertions, failures };
    },
  };
}
