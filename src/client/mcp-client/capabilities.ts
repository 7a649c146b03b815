// The client's capabilities follow from the handlers it was given; how they are written depends on
// the revision offered, and this table is the one place that knows.
import { EXTENSIONS, type AnyProtocolVersion } from "../../constants/index.js";
import type { ClientCapabilities } from "../../schemas/schemas.js";
import type { ElicitationOptions, ExtraClientCapabilities, SamplingOptions } from "./mcp-client.types.js";
import { withFields } from "../../types/objects.js";

interface RevisionClientFeatures {
  /** `absent`: no elicitation; `form-only`: `elicitation: {}` means form; `per-mode`: `{ form?, url? }`. */
  readonly elicitation: "absent" | "form-only" | "per-mode";
  /** Whether `sampling.tools` and `sampling.context` exist. */
  readonly samplingDetails: boolean;
  /** Whether the tasks extension (`io.modelcontextprotocol/tasks`) is declared under `extensions`. */
  readonly tasksExtension?: true;
}

const FEATURES: Readonly<Record<AnyProtocolVersion, RevisionClientFeatures>> = {
  "2024-11-05": { elicitation: "absent", samplingDetails: false },
  "2025-03-26": { elicitation: "absent", samplingDetails: false },
  "2025-06-18": { elicitation: "form-only", samplingDetails: false },
  // Stryker disable next-line StringLiteral: only "absent" and "form-only" are tested for; any other value means per-mode
  "2025-11-25": { elicitation: "per-mode", samplingDetails: true },
  "2026-07-28": { elicitation: "per-mode", samplingDetails: true, tasksExtension: true },
};

export interface CapabilitySources {
  readonly extra: ExtraClientCapabilities | undefined;
  readonly roots: boolean;
  readonly sampling: SamplingOptions | undefined;
  readonly elicitation: ElicitationOptions | undefined;
  /** Declare the tasks extension where the revision has it (option `tasks`). */
  readonly tasks: boolean;
}

/** The capabilities to declare when offering `version` (in `initialize`, or in every request's `_meta`). */
export function deriveCapabilities(version: AnyProtocolVersion, sources: CapabilitySources): ClientCapabilities {
  const features = FEATURES[version];
  const elicitation = sources.elicitation && elicitationCapability(sources.elicitation, features);
  const extensions = sources.tasks && features.tasksExtension && withFields(sources.extra?.extensions, { [EXTENSIONS.tasks]: {} });
  // Made at every connect, so built field by field and copied by `withFields` (on Node 20 an object that starts with a spread is slow).
  const declared: ClientCapabilities = {};
  if (extensions) declared.extensions = extensions;
  if (sources.roots) declared.roots = { listChanged: true };
  if (sources.sampling) declared.sampling = samplingCapability(sources.sampling, features);
  if (elicitation) declared.elicitation = elicitation;
  return withFields(sources.extra, declared);
}

function samplingCapability(sampling: SamplingOptions, features: RevisionClientFeatures): ClientCapabilities["sampling"] {
  if (!features.samplingDetails) return {};
  const details: NonNullable<ClientCapabilities["sampling"]> = {};
  if (sampling.tools) details.tools = {};
  if (sampling.context) details.context = {};
  return details;
}

function elicitationCapability(elicitation: ElicitationOptions, features: RevisionClientFeatures): ClientCapabilities["elicitation"] {
  if (features.elicitation === "absent") return undefined;
  if (features.elicitation === "form-only") return elicitation.form && {};
  const form = elicitation.form && { ...(elicitation.applyDefaults && { applyDefaults: true }) };
  const url = elicitation.url && {};
  if (!form && !url) return undefined;
  const modes: ElicitationCapability = {};
  if (form) modes.form = form;
  if (url) modes.url = url;
  return modes;
}

export type ElicitationCapability = NonNullable<ClientCapabilities["elicitation"]>;

/** Whether a declared elicitation capability accepts form-mode `elicitation/create`. */
export function declaresFormElicitation(declared: ElicitationCapability): boolean {
  // An empty elicitation capability (2025-06-18 style) means form mode only.
  return declared.form !== undefined || declared.url === undefined;
}

/** Whether a declared elicitation capability accepts URL-mode `elicitation/create`. */
export function declaresUrlElicitation(declared: ElicitationCapability): boolean {
  return declared.url !== undefined;
}

/** Whether an accepted form gets the schema's defaults (declared as `elicitation.form.applyDefaults`). */
export function declaresApplyDefaults(declared: ElicitationCapability): boolean {
  return (declared.form as { applyDefaults?: unknown } | undefined)?.applyDefaults === true;
}
