import { METHODS } from "../../constants/index.js";
import type { RevisionProfile } from "../../protocol/profiles.js";
import type { ClientCapabilities } from "../../schemas/schemas.js";
import type { JsonObject } from "../../types/types.js";

/**
 * A capability a request for input needs and the client did not declare: its dotted name and the capabilities object that would declare it.
 */
export interface MissingCapability {
  readonly name: string;
  readonly required: ClientCapabilities;
}

function missing(name: string, required: ClientCapabilities): MissingCapability {
  return { name, required };
}

/**
 * What a request for input from the client (elicitation, sampling, roots) needs and the client did
 * not declare, in either era: a server never asks for what the client cannot answer.
 */
export function missingCapabilityFor(
  method: string,
  params: JsonObject | undefined,
  capabilities: ClientCapabilities,
  profile: RevisionProfile,
): MissingCapability | undefined {
  if (method === METHODS.samplingCreateMessage) {
    const sampling = capabilities.sampling;
    if (!sampling) return missing("sampling", { sampling: {} });
    if ((params?.["tools"] !== undefined || params?.["toolChoice"] !== undefined) && !(sampling.tools && profile.samplingTools))
      return missing("sampling.tools", { sampling: { tools: {} } });
    return undefined;
  }
  if (method === METHODS.rootsList) return capabilities.roots ? undefined : missing("roots", { roots: {} });
  const elicitation = capabilities.elicitation;
  if (params?.["mode"] === "url")
    return elicitation?.url && profile.urlElicitation ? undefined : missing("elicitation.url", { elicitation: { url: {} } });
  // `elicitation: {}` (no modes named) is how older clients declare form mode.
  return elicitation && (elicitation.form || !elicitation.url) ? undefined : missing("elicitation.form", { elicitation: { form: {} } });
}
