import { describe, expect, it } from "vitest";

import { ALL_PROTOCOL_VERSIONS, PROTOCOL_VERSIONS, STATELESS_PROTOCOL_VERSIONS } from "../constants/index.js";
import { JSONRPC_ERROR_CODES } from "../error-codes/error-codes.js";
import { CODECS } from "../schemas/codecs.js";
import { PROFILES, profileOf, versionsOf } from "./profiles.js";

describe("revision profiles", () => {
  it("has one profile per revision, naming its own version", () => {
    for (const version of ALL_PROTOCOL_VERSIONS) expect(profileOf(version).version).toBe(version);
    expect(Object.keys(PROFILES)).toEqual([...ALL_PROTOCOL_VERSIONS]);
  });

  it("allows batches exactly where the revision's codec does", () => {
    for (const version of PROTOCOL_VERSIONS) expect([version, PROFILES[version].batching]).toEqual([version, CODECS[version].batching]);
    expect(PROFILES["2026-07-28"].batching).toBe(false);
  });

  it("puts the handshake revisions in the session era and 2026-07-28 in the stateless one", () => {
    expect(versionsOf(["session"])).toEqual([...PROTOCOL_VERSIONS]);
    expect(versionsOf(["stateless"])).toEqual([...STATELESS_PROTOCOL_VERSIONS]);
    expect(versionsOf(["session", "stateless"])).toEqual([...ALL_PROTOCOL_VERSIONS]);
    expect(versionsOf([])).toEqual([]);
  });

  it("says resource not found with -32002 up to 2025-11-25 and -32602 after", () => {
    expect(PROTOCOL_VERSIONS.map((version) => PROFILES[version].resourceNotFoundCode)).toEqual(
      PROTOCOL_VERSIONS.map(() => JSONRPC_ERROR_CODES.RESOURCE_NOT_FOUND),
    );
    expect(PROFILES["2026-07-28"].resourceNotFoundCode).toBe(JSONRPC_ERROR_CODES.INVALID_PARAMS);
  });

  it("primes SSE streams only for 2025-11-25 clients, and declares completions from 2025-03-26", () => {
    expect(ALL_PROTOCOL_VERSIONS.filter((version) => PROFILES[version].primingEvent)).toEqual(["2025-11-25"]);
    expect(ALL_PROTOCOL_VERSIONS.filter((version) => !PROFILES[version].declaresCompletions)).toEqual(["2024-11-05"]);
    expect(ALL_PROTOCOL_VERSIONS.filter((version) => PROFILES[version].urlElicitation)).toEqual(["2025-11-25", "2026-07-28"]);
  });

  it("has no tasks before 2025-11-25, core tasks in 2025-11-25 and the extension's in 2026-07-28", () => {
    expect(ALL_PROTOCOL_VERSIONS.map((version) => PROFILES[version].tasks)).toEqual(["none", "none", "none", "core", "extension"]);
  });
});
