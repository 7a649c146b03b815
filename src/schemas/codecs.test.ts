import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";

import { ALL_PROTOCOL_VERSIONS, type AnyProtocolVersion, PROTOCOL_VERSIONS, STATELESS_PROTOCOL_VERSIONS } from "../constants/index.js";
import type { RevisionCodec } from "./codec.js";
import { CODECS, codecFor } from "./codecs.js";
import { type RevisionSamples, samplesFor } from "./samples-2026.test-helpers.js";
import type { Rejected, Sample, SampleSet } from "./samples.test-helpers.js";
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

const EXPECTED_METHODS: Record<AnyProtocolVersion, ExpectedMethods> = {
  "2024-11-05": BASE_METHODS,
  "2025-03-26": BASE_METHODS,
  "2025-06-18": WITH_ELICITATION,
  "2025-11-25": {
    clientRequests: [...BASE_CLIENT_REQUESTS, ...TASK_REQUESTS],
    serverRequests: [...WITH_ELICITATION.serverRequests, ...TASK_REQUESTS],
    clientNotifications: [...BASE_CLIENT_NOTIFICATIONS, "notifications/tasks/status"],
    serverNotifications: [...BASE_SERVER_NOTIFICATIONS, "notifications/elicitation/complete", "notifications/tasks/status"],
  },
  "2026-07-28": {
    clientRequests: [
      "server/discover",
      "completion/complete",
      "prompts/list",
      "prompts/get",
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "subscriptions/listen",
      "tools/list",
      "tools/call",
      "tasks/get",
      "tasks/update",
      "tasks/cancel",
    ],
    serverRequests: [],
    clientNotifications: ["notifications/cancelled"],
    serverNotifications: [
      "notifications/cancelled",
      "notifications/progress",
      "notifications/message",
      "notifications/resources/updated",
      "notifications/resources/list_changed",
      "notifications/tools/list_changed",
      "notifications/prompts/list_changed",
      "notifications/subscriptions/acknowledged",
      "notifications/tasks",
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
function schemaUses(codec: RevisionCodec, sampleSets: RevisionSamples): SchemaUse[] {
  const uses = new Map<z.ZodMiniType, { places: string[]; valid: Set<Sample>; invalid: Set<Rejected> }>();
  const use = (schema: z.ZodMiniType, place: string, samples: SampleSet | undefined): void => {
    const entry = uses.get(schema) ?? { places: [], valid: new Set(), invalid: new Set() };
    uses.set(schema, entry);
    entry.places.push(place);
    for (const sample of samples?.valid ?? []) entry.valid.add(sample);
    for (const sample of samples?.invalid ?? []) entry.invalid.add(sample);
  };
  for (const [direction, requests] of [
    ["client", codec.clientRequests],
    ["server", codec.serverRequests],
  ] as const) {
    for (const [method, { params, result }] of Object.entries(requests)) {
      use(params, `${direction} ${method} params`, sampleSets.requests[method]?.params);
      use(result, `${direction} ${method} result`, sampleSets.requests[method]?.result);
    }
  }
  for (const [direction, notifications] of [
    ["client", codec.clientNotifications],
    ["server", codec.serverNotifications],
  ] as const) {
    for (const [method, schema] of Object.entries(notifications)) use(schema, `${direction} ${method}`, sampleSets.notifications[method]);
  }
  return [...uses].map(([schema, { places, valid, invalid }]) => ({
    schema,
    places: places.join(", "),
    valid: [...valid],
    invalid: [...invalid],
  }));
}

/** The revisions that share one set of samples: the session era's, and the stateless one's. */
const ERAS = [
  ["session-era", PROTOCOL_VERSIONS],
  ["stateless", STATELESS_PROTOCOL_VERSIONS],
] as const;

/** The methods some revision of `versions` has, in either direction. */
const methodsOf = (versions: readonly AnyProtocolVersion[], tables: (codec: RevisionCodec) => readonly object[]): string[] => [
  ...new Set(versions.flatMap((version) => tables(codecFor(version)).flatMap((table) => Object.keys(table)))),
];
const requestTables = (codec: RevisionCodec): readonly object[] => [codec.clientRequests, codec.serverRequests];
const notificationTables = (codec: RevisionCodec): readonly object[] => [codec.clientNotifications, codec.serverNotifications];

const USABLE = {
  defined: true,
  hasValid: true,
  hasInvalid: true,
  hasValidObject: true,
  invalidAlsoValid: [] as string[],
  revisionLinesAmiss: [] as string[],
};

/** What makes a sample set test something, as one object to compare with USABLE (a failure shows which part is amiss). */
function usability(set: SampleSet | undefined, revisions: readonly AnyProtocolVersion[]): typeof USABLE {
  const { valid, invalid } = set ?? { valid: [], invalid: [] };
  return {
    defined: set !== undefined,
    hasValid: valid.length > 0,
    hasInvalid: invalid.length > 0,
    // withExtension adds a key only to an object: without one, "keeps unknown keys" checks nothing.
    hasValidObject: valid.some(([, value]) => isPlainObject(value)),
    invalidAlsoValid: invalid
      .filter(([, value]) => valid.some(([, accepted]) => isDeepStrictEqual(accepted, value)))
      .map(([label]) => label),
    // A per-revision line names exactly the revisions with the method, and is per revision because the lines differ.
    revisionLinesAmiss: invalid
      .filter(
        ([, , issues]) =>
          typeof issues !== "string" && !(isDeepStrictEqual(Object.keys(issues), revisions) && new Set(Object.values(issues)).size > 1),
      )
      .map(([label]) => label),
  };
}

describe("CODECS", () => {
  it("has exactly one codec per revision of either era, each naming its own version", () => {
    expect(Object.keys(CODECS)).toEqual([...ALL_PROTOCOL_VERSIONS]);
    for (const version of ALL_PROTOCOL_VERSIONS) expect(CODECS[version].version).toBe(version);
  });

  it("codecFor returns the revision's codec", () => {
    for (const version of ALL_PROTOCOL_VERSIONS) expect(codecFor(version)).toBe(CODECS[version]);
  });

  it("allows JSON-RPC batching only in 2025-03-26", () => {
    const batching = ALL_PROTOCOL_VERSIONS.filter((version) => codecFor(version).batching);
    expect(batching).toEqual(["2025-03-26"]);
  });
});

describe.each(ERAS)("%s samples", (_era, versions) => {
  const samples = samplesFor(versions[0]);
  const requestMethods = methodsOf(versions, requestTables);
  const notificationMethods = methodsOf(versions, notificationTables);
  const revisionsWith = (method: string, tables: (codec: RevisionCodec) => readonly object[]): AnyProtocolVersion[] =>
    versions.filter((version) => tables(codecFor(version)).some((table) => method in table));

  it("are the samples of each revision of the era", () => {
    for (const version of versions) expect(samplesFor(version)).toStrictEqual(samples);
  });

  it("exist for exactly the methods some revision of the era has", () => {
    expect(sorted(Object.keys(samples.requests))).toEqual(sorted(requestMethods));
    expect(sorted(Object.keys(samples.notifications))).toEqual(sorted(notificationMethods));
  });

  it.each(requestMethods)("request %s has usable params and result samples", (method) => {
    const revisions = revisionsWith(method, requestTables);
    expect(usability(samples.requests[method]?.params, revisions)).toEqual(USABLE);
    expect(usability(samples.requests[method]?.result, revisions)).toEqual(USABLE);
  });

  it.each(notificationMethods)("notification %s has usable samples", (method) => {
    expect(usability(samples.notifications[method], revisionsWith(method, notificationTables))).toEqual(USABLE);
  });
});

describe.each(ALL_PROTOCOL_VERSIONS)("codec %s", (version) => {
  const codec: RevisionCodec = codecFor(version);
  const expected = EXPECTED_METHODS[version];

  it("lists exactly the revision's methods in each direction", () => {
    expect(sorted(Object.keys(codec.clientRequests))).toEqual(sorted(expected.clientRequests));
    expect(sorted(Object.keys(codec.serverRequests))).toEqual(sorted(expected.serverRequests));
    expect(sorted(Object.keys(codec.clientNotifications))).toEqual(sorted(expected.clientNotifications));
    expect(sorted(Object.keys(codec.serverNotifications))).toEqual(sorted(expected.serverNotifications));
  });

  it("uses one schema for each method that goes both ways (cancellation in every revision)", () => {
    const requests = Object.keys(codec.clientRequests).filter((method) => method in codec.serverRequests);
    const notifications = Object.keys(codec.clientNotifications).filter((method) => method in codec.serverNotifications);
    expect(requests.filter((method) => codec.clientRequests[method] !== codec.serverRequests[method])).toEqual([]);
    expect(notifications.filter((method) => codec.clientNotifications[method] !== codec.serverNotifications[method])).toEqual([]);
    expect(notifications).toContain("notifications/cancelled");
  });

  const uses = schemaUses(codec, samplesFor(version));

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
