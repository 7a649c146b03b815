import { it } from "vitest";
import { PROTOCOL_VERSIONS } from "../constants/index.js";
import { codecFor } from "./codecs.js";
import { NOTIFICATION_SAMPLES, REQUEST_SAMPLES } from "./samples.test-helpers.js";
import { validate } from "./validate.js";
it("dump", () => {
  const lines: string[] = [];
  for (const v of PROTOCOL_VERSIONS) {
    const c = codecFor(v);
    for (const [m, s] of [...Object.entries(c.clientRequests), ...Object.entries(c.serverRequests)]) {
      for (const [l, val] of REQUEST_SAMPLES[m]!.params.invalid) { const r = validate(s.params, val); lines.push(`${v} ${m} params ${l} => ${r.ok ? "OK" : r.issues}`); }
      for (const [l, val] of REQUEST_SAMPLES[m]!.result.invalid) { const r = validate(s.result, val); lines.push(`${v} ${m} result ${l} => ${r.ok ? "OK" : r.issues}`); }
    }
    for (const [m, s] of [...Object.entries(c.clientNotifications), ...Object.entries(c.serverNotifications)]) {
      for (const [l, val] of NOTIFICATION_SAMPLES[m]!.invalid) { const r = validate(s, val); lines.push(`${v} ${m} ${l} => ${r.ok ? "OK" : r.issues}`); }
    }
  }
  console.log([...new Set(lines)].join("\n"));
});
