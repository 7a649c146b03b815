import { PROTOCOL_VERSIONS, type ProtocolVersion } from "../constants/index.js";

/**
 * What a server may send that not every session-era revision has, and the revision each first
 * appears in. Everything not named here is the same in all four revisions.
 */
const SINCE = {
  audio: "2025-03-26",
  toolAnnotations: "2025-03-26",
  progressMessage: "2025-03-26",
  completions: "2025-03-26",
  /** `title` on tools, resources, templates, prompts, prompt arguments and the server's info. */
  titles: "2025-06-18",
  /** `_meta` on tools, resources, templates, prompts, content blocks and resource contents. */
  itemMeta: "2025-06-18",
  lastModified: "2025-06-18",
  resourceLinks: "2025-06-18",
  /** A tool's `outputSchema` and a result's `structuredContent`. */
  structuredOutput: "2025-06-18",
  elicitation: "2025-06-18",
  icons: "2025-11-25",
  /** The server's `description` and `websiteUrl`. */
  implementationDetails: "2025-11-25",
  /** Tasks: `execution` on tools, `task` in params, the `tasks` capability, `tasks/*`, `notifications/tasks/status`. */
  tasks: "2025-11-25",
  /** `tools`/`toolChoice` in sampling, `tool_use`/`tool_result` blocks, several blocks in one sampling message. */
  samplingTools: "2025-11-25",
  urlElicitation: "2025-11-25",
  /** Defaults on string and number fields, titled (`oneOf`) and multi-select enums, `$schema` on a form. */
  richForms: "2025-11-25",
} as const satisfies Record<string, ProtocolVersion>;

export type Feature = keyof typeof SINCE;

/** One revision as the downgrade sees it: what it has, and the keys it lacks, listed once. */
export interface Revision {
  readonly version: ProtocolVersion;
  /** Has everything: what goes out passes untouched. */
  readonly complete: boolean;
  readonly has: Readonly<Record<Feature, boolean>>;
  /** Keys a tool, resource, template, prompt or resource link lacks here. */
  readonly itemKeys: readonly string[];
  /** Keys a tool lacks here (the item keys and the tool's own). */
  readonly toolKeys: readonly string[];
  /** Keys a content block or a resource's contents lack here. */
  readonly blockKeys: readonly string[];
  /** Keys the server's `Implementation` lacks here. */
  readonly implementationKeys: readonly string[];
  /** Server capabilities this revision does not define. */
  readonly capabilityKeys: readonly string[];
}

function keysWithout(has: Readonly<Record<Feature, boolean>>, keys: ReadonlyArray<readonly [string, Feature]>): string[] {
  return keys.filter(([, feature]) => !has[feature]).map(([key]) => key);
}

function revision(version: ProtocolVersion): Revision {
  const index = PROTOCOL_VERSIONS.indexOf(version);
  const has = Object.fromEntries(
    Object.entries(SINCE).map(([feature, since]) => [feature, PROTOCOL_VERSIONS.indexOf(since) <= index]),
  ) as Record<Feature, boolean>;
  const itemKeys = keysWithout(has, [
    ["title", "titles"],
    ["_meta", "itemMeta"],
    ["icons", "icons"],
  ]);
  return {
    version,
    complete: Object.values(has).every(Boolean),
    has,
    itemKeys,
    toolKeys: [
      ...itemKeys,
      ...keysWithout(has, [
        ["outputSchema", "structuredOutput"],
        ["execution", "tasks"],
        ["annotations", "toolAnnotations"],
      ]),
    ],
    blockKeys: keysWithout(has, [["_meta", "itemMeta"]]),
    implementationKeys: keysWithout(has, [
      ["title", "titles"],
      ["icons", "icons"],
      ["description", "implementationDetails"],
      ["websiteUrl", "implementationDetails"],
    ]),
    capabilityKeys: keysWithout(has, [
      ["completions", "completions"],
      ["tasks", "tasks"],
    ]),
  };
}

// Built by a pure call, so a bundle that never downgrades leaves the table out.
const REVISIONS = /* @__PURE__ */ revisions();

function revisions(): Readonly<Record<ProtocolVersion, Revision>> {
  return Object.fromEntries(PROTOCOL_VERSIONS.map((version) => [version, revision(version)])) as Record<ProtocolVersion, Revision>;
}

export function revisionOf(version: ProtocolVersion): Revision {
  return REVISIONS[version];
}

/** Whether `version` has `feature` (e.g. `progressMessage`, `samplingTools`). */
export function revisionHas(version: ProtocolVersion, feature: Feature): boolean {
  return REVISIONS[version].has[feature];
}

/** What the encoders answer for a request or notification the revision does not have: nothing is to be sent. */
export const NOT_IN_REVISION: unique symbol = Symbol("not in this protocol revision");
