import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";

import { PROTOCOL_VERSIONS, type ProtocolVersion } from "../constants/index.js";
import type { RevisionCodec } from "./codec.js";
import { CODECS, codecFor } from "./codecs.js";
import { NOTIFICATION_SAMPLES, REQUEST_SAMPLES, type Rejected, type Sample, type SampleSet } from "./samples.test-helpers.js";
import { validate } from "./validate.js";

const BASE_CLIENT_REQUESTS = [
  "ping",
  "initialize",
  "completion/complete",
  "logging/setLevel",
  "prompts/list",
  "prompts/get",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "tools/list",
  "tools/call",
];
const BASE_SERVER_REQUESTS = ["ping", "sampling/createMessage", "roots/list"];
const TASK_REQUESTS = ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"];
const BASE_CLIENT_NOTIFICATIONS = [
  "notifications/cancelled",
  "notifications/progress",
  "notifications/initialized",
  "notifications/roots/list_changed",
];
const BASE_SERVER_NOTIFICATIONS = [
  "notifications/cancelled",
  "notifications/progress",
  "notifications/message",
  "notifications/resources/updated",
  "notifications/resources/list_changed",
  "notifications/tools/list_changed",
  "notifications/prompts/list_changed",
];

interface ExpectedMethods {
  readonly clientRequests: readonly string[];
  readonly serverRequests: readonly string[];
  readonly clientNotifications: readonly string[];
  readonly serverNotifications: readonly string[];
}

const BASE_METHODS: ExpectedMethods = {
  clientRequests: BASE_CLIENT_REQUESTS,
  serverRequests: BASE_SERVER_REQUESTS,
  clientNotifications: BASE_CLIENT_NOTIFICATIONS,
  serverNotifications: BASE_SERVER_NOTIFICATIONS,
};
const WITH_ELICITATION: ExpectedMethods = {
  ...BASE_METHODS,
  serverRequests: [...BASE_SERVER_REQUESTS, "elicitation/create"],
};

const EXPECTED_METHODS: Record<ProtocolVersion, ExpectedMethods> = {
  "2024-11-05": BASE_METHODS,
  "2025-03-26": BASE_METHODS,
  "2025-06-18": WITH_ELICITATION,
  "2025-11-25": {
    clientRequests: [...BASE_CLIENT_REQUESTS, ...TASK_REQUESTS],
    serverRequests: [...WITH_ELICITATION.serverRequests, ...TASK_REQUESTS],
    clientNotifications: [...BASE_CLIENT_NOTIFICATIONS, "notifications/tasks/status"],
    serverNotifications: [
      ...BASE_SERVER_NOTIFICATIONS,
      "notifications/elicitation/complete",
      "notifications/tasks/status",
    ],
  },
};

const sorted = (names: readonly string[]): string[] => names.toSorted();

const isPlainObject = (value: unknown): value is object => typeof value === "object" && value !== null && !Array.isArray(value);

function withExtension(value: unknown): unknown {
  return isPlainObject(value) ? { ...value, "x-extension": { kept: true } } : value;
}

/** One schema of a revision: every place the codec uses it, and the samples of those places, each once. */
interface SchemaUse {
  readonly schema: z.ZodMiniType;
  readonly places: string;
  readonly valid: readonly Sample[];
  readonly invalid: readonly Rejected[];
}

// A schema serves several places (ping in both directions; ping, logging/setLevel and the subscriptions
// share one empty result), and places share sample sets: one row per schema and sample, not per place.
function schemaUses(codec: RevisionCodec): SchemaUse[] {
  const uses = new Map<z.ZodMiniType, { places: string[]; valid: Set<Sample>; invalid: Set<Rejected> }>();
  const use = (schema: z.ZodMiniType, place: string, samples: SampleSet | undefined): void => {
    const entry = uses.get(schema) ?? { places: [], valid: new Set(), invalid: new Set() };
    uses.set(schema, entry);
    entry.places.push(place);
    for (const sample of samples?.valid ?? []) entry.valid.add(sample);
    for (const sample of samples?.invalid ?? []) entry.invalid.add(sample);
  };
  for (const [direction, requests] of [["client", codec.clientRequests], ["server", codec.serverRequests]] as const) {
    for (const [method, { params, result }] of Object.entries(requests)) {
      use(params, `${direction} ${method} params`, REQUEST_SAMPLES[method]?.params);
      use(result, `${direction} ${method} result`, REQUEST_SAMPLES[method]?.result);
    }
  }
  for (const [direction, notifications] of [["client", codec.clientNotifications], ["server", codec.serverNotifications]] as const) {
    for (const [method, schema] of Object.entries(notifications)) use(schema, `${direction} ${method}`, NOTIFICATION_SAMPLES[method]);
  }
  return [...uses].map(([schema, { places, valid, invalid }]) => ({ schema, places: places.join(", "), valid: [...valid], invalid: [...invalid] }));
}

const revisionsWith = (has: (codec: RevisionCodec) => boolean): ProtocolVersion[] => PROTOCOL_VERSIONS.filter((version) => has(codecFor(version)));
/** The methods some revision has, in either direction. */
const methodsOf = (tables: (codec: RevisionCodec) => readonly object[]): string[] => [
  ...new Set(PROTOCOL_VERSIONS.flatMap((version) => tables(codecFor(version)).flatMap((table) => Object.keys(table)))),
];
const REQUEST_METHODS = methodsOf((codec) => [codec.clientRequests, codec.serverRequests]);
const NOTIFICATION_METHODS = methodsOf((codec) => [codec.clientNotifications, codec.serverNotifications]);

const USABLE = { defined: true, hasValid: true, hasInvalid: true, hasValidObject: true, invalidAlsoValid: [] as string[], revisionLinesAmiss: [] as string[] };

/** What makes a sample set test something, as one object to compare with USABLE (a failure shows which part is amiss). */
function usability(set: SampleSet | undefined, revisions: readonly ProtocolVersion[]): typeof USABLE {
  const { valid, invalid } = set ?? { valid: [], invalid: [] };
  return {
    defined: set !== undefined,
    hasValid: valid.length > 0,
    hasInvalid: invalid.length > 0,
    // withExtension adds a key only to an object: without one, "keeps unknown keys" checks nothing.
    hasValidObject: valid.some(([, value]) => isPlainObject(value)),
    invalidAlsoValid: invalid.filter(([, value]) => valid.some(([, accepted]) => isDeepStrictEqual(accepted, value))).map(([label]) => label),
    // A per-revision line names exactly the revisions with the method, and is per revision because the lines differ.
    revisionLinesAmiss: invalid
      .filter(([, , issues]) => typeof issues !== "string" && !(isDeepStrictEqual(Object.keys(issues), revisions) && new Set(Object.values(issues)).size > 1))
      .map(([label]) => label),
  };
}

describe("CODECS", () => {
  it("has exactly one codec per negotiable revision, each naming its own version", () => {
    expect(Object.keys(CODECS)).toEqual([...PROTOCOL_VERSIONS]);
    for (const version of PROTOCOL_VERSIONS) expect(CODECS[version].version).toBe(version);
  });

  it("codecFor returns the revision's codec", () => {
    for (const version of PROTOCOL_VERSIONS) expect(codecFor(version)).toBe(CODECS[version]);
  });

  it("allows JSON-RPC batching only in 2025-03-26", () => {
    const batching = PROTOCOL_VERSIONS.filter((version) => codecFor(version).batching);
    expect(batching).toEqual(["2025-03-26"]);
  });
});

describe("samples", () => {
  it("exist for exactly the methods some revision has", () => {
    expect(sorted(Object.keys(REQUEST_SAMPLES))).toEqual(sorted(REQUEST_METHODS));
    expect(sorted(Object.keys(NOTIFICATION_SAMPLES))).toEqual(sorted(NOTIFICATION_METHODS));
  });

  it.each(REQUEST_METHODS)("request %s has usable params and result samples", (method) => {
    const revisions = revisionsWith((codec) => method in codec.clientRequests || method in codec.serverRequests);
    expect(usability(REQUEST_SAMPLES[method]?.params, revisions)).toEqual(USABLE);
    expect(usability(REQUEST_SAMPLES[method]?.result, revisions)).toEqual(USABLE);
  });

  it.each(NOTIFICATION_METHODS)("notification %s has usable samples", (method) => {
    const revisions = revisionsWith((codec) => method in codec.clientNotifications || method in codec.serverNotifications);
    expect(usability(NOTIFICATION_SAMPLES[method], revisions)).toEqual(USABLE);
  });
});

describe.each(PROTOCOL_VERSIONS)("codec %s", (version) => {
  const codec: RevisionCodec = codecFor(version);
  const expected = EXPECTED_METHODS[version];

  it("lists exactly the revision's methods in each direction", () => {
    expect(sorted(Object.keys(codec.clientRequests))).toEqual(sorted(expected.clientRequests));
    expect(sorted(Object.keys(codec.serverRequests))).toEqual(sorted(expected.serverRequests));
    expect(sorted(Object.keys(codec.clientNotifications))).toEqual(sorted(expected.clientNotifications));
    expect(sorted(Object.keys(codec.serverNotifications))).toEqual(sorted(expected.serverNotifications));
  });

  it("uses the same schemas for ping, cancellation and progress in both directions", () => {
    expect(codec.clientRequests["ping"]).toBe(codec.serverRequests["ping"]);
    for (const method of ["notifications/cancelled", "notifications/progress"]) {
      expect(codec.clientNotifications[method]).toBe(codec.serverNotifications[method]);
    }
  });

  const uses = schemaUses(codec);

  it("labels each sample of a schema distinctly (the labels name the rows)", () => {
    const labelled = uses.map(({ places, valid, invalid }) => ({ places, labels: [...valid, ...invalid].map(([label]) => label) }));
    expect(labelled.filter(({ labels }) => new Set(labels).size !== labels.length).map(({ places }) => places)).toEqual([]);
  });

  describe.each(uses.map((use) => [use.places, use] as const))("%s", (_places, { schema, valid, invalid }) => {
    it.each<Sample>(valid)("accepts and keeps unknown keys: %s", (_label, value) => {
      expect(validate(schema, value)).toEqual({ ok: true, value });
      const extended = withExtension(value);
      expect(validate(schema, extended)).toEqual({ ok: true, value: extended });
    });
    it.each<Rejected>(invalid)("rejects with its issue line: %s", (_label, value, issues) => {
      expect(validate(schema, value)).toStrictEqual({ ok: false, issues: typeof issues === "string" ? issues : issues[version] });
    });
  });
});
