import { describe, expect, it } from "vitest";

import { PROTOCOL_VERSIONS, type ProtocolVersion } from "../constants/index.js";
import type { RevisionCodec } from "./codec.js";
import { CODECS, codecFor } from "./codecs.js";
import { NOTIFICATION_SAMPLES, REQUEST_SAMPLES, type Sample } from "./samples.test-helpers.js";
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

function withExtension(value: unknown): unknown {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? { ...value, "x-extension": { kept: true } }
    : value;
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

  const requests = [
    ...Object.entries(codec.clientRequests).map(([method, schemas]) => ({ direction: "client", method, schemas })),
    ...Object.entries(codec.serverRequests).map(([method, schemas]) => ({ direction: "server", method, schemas })),
  ];

  describe.each(requests)("$direction request $method", ({ method, schemas }) => {
    const samples = REQUEST_SAMPLES[method];

    it("has samples", () => {
      expect(samples).toBeDefined();
    });

    const params = samples?.params;
    const result = samples?.result;

    it.each<Sample>(params?.valid ?? [])("accepts params and keeps unknown keys: %s", (_label, value) => {
      expect(validate(schemas.params, value)).toEqual({ ok: true, value });
      const extended = withExtension(value);
      expect(validate(schemas.params, extended)).toEqual({ ok: true, value: extended });
    });
    it.each<Sample>(params?.invalid ?? [])("rejects params: %s", (_label, value) => {
      expect(validate(schemas.params, value).ok).toBe(false);
    });
    it.each<Sample>(result?.valid ?? [])("accepts result and keeps unknown keys: %s", (_label, value) => {
      expect(validate(schemas.result, value)).toEqual({ ok: true, value });
      const extended = withExtension(value);
      expect(validate(schemas.result, extended)).toEqual({ ok: true, value: extended });
    });
    it.each<Sample>(result?.invalid ?? [])("rejects result: %s", (_label, value) => {
      expect(validate(schemas.result, value).ok).toBe(false);
    });
  });

  const notifications = [
    ...Object.entries(codec.clientNotifications).map(([method, schema]) => ({ direction: "client", method, schema })),
    ...Object.entries(codec.serverNotifications).map(([method, schema]) => ({ direction: "server", method, schema })),
  ];

  describe.each(notifications)("$direction notification $method", ({ method, schema }) => {
    const samples = NOTIFICATION_SAMPLES[method];

    it("has samples", () => {
      expect(samples).toBeDefined();
    });
    it.each<Sample>(samples?.valid ?? [])("accepts params and keeps unknown keys: %s", (_label, value) => {
      expect(validate(schema, value)).toEqual({ ok: true, value });
      const extended = withExtension(value);
      expect(validate(schema, extended)).toEqual({ ok: true, value: extended });
    });
    it.each<Sample>(samples?.invalid ?? [])("rejects params: %s", (_label, value) => {
      expect(validate(schema, value).ok).toBe(false);
    });
  });
});
