// What a server sends, in the form of the revision its peer negotiated: a field or content type the
// revision lacks is never sent; it is downgraded where the revision has a faithful form for it, and
// dropped otherwise. The newest revision gets everything as it is (the same object, no copy); an
// older one gets copies of only the objects that change. Nothing given is ever modified.
// The decisions, row by row: "What each revision receives" in src/schemas/schemas.md.
import {
  METHODS,
  NOTIFICATIONS,
  isProtocolVersion,
  type AnyProtocolVersion,
  type NotificationMethod,
  type ProtocolVersion,
  type RequestMethod,
} from "../constants/index.js";
import {
  blockFor,
  implementationFor,
  isObj,
  mapField,
  promptFor,
  resourceFor,
  toolFor,
  toolResultFor,
  without,
  type Obj,
} from "./downgrade-items.js";
import { elicitationFor, samplingFor } from "./downgrade-requests.js";
import { NOT_IN_REVISION, revisionOf, type Feature, type Revision } from "./revision-features.js";
import { withFields } from "../types/objects.js";

export { NOT_IN_REVISION, revisionHas, type Feature } from "./revision-features.js";

/** Server capabilities as `version` defines them: the ones it lacks are left out (the stateless era has them all). */
export function encodeCapabilitiesFor<T extends object>(version: AnyProtocolVersion, capabilities: T): T {
  return isProtocolVersion(version) ? (without(capabilities as Obj, revisionOf(version).capabilityKeys) as T) : capabilities;
}

function initializeFor(revision: Revision, result: Obj): Obj {
  const info = result["serverInfo"];
  const capabilities = result["capabilities"];
  const keptInfo = isObj(info) ? implementationFor(revision, info) : info;
  const keptCapabilities = isObj(capabilities) ? without(capabilities, revision.capabilityKeys) : capabilities;
  return keptInfo === info && keptCapabilities === capabilities
    ? result
    : withFields(result, { serverInfo: keptInfo, capabilities: keptCapabilities });
}

type Encoder = (revision: Revision, value: Obj) => Obj;

// The tables below name methods by their literals (checked against the method types): computed keys
// read from METHODS would stay in bundles that never use the tables.
const RESULTS: Readonly<Partial<Record<string, Encoder>>> = {
  initialize: initializeFor,
  "tools/list": (revision, result) => mapField(result, "tools", (tool) => toolFor(revision, tool)),
  "tools/call": toolResultFor,
  "resources/list": (revision, result) => mapField(result, "resources", (resource) => resourceFor(revision, resource)),
  "resources/templates/list": (revision, result) => mapField(result, "resourceTemplates", (template) => resourceFor(revision, template)),
  "resources/read": (revision, result) => mapField(result, "contents", (contents) => without(contents, revision.blockKeys)),
  "prompts/list": (revision, result) => mapField(result, "prompts", (prompt) => promptFor(revision, prompt)),
  "prompts/get": (revision, result) => mapField(result, "messages", (message) => promptMessageFor(revision, message)),
} satisfies Partial<Record<RequestMethod, Encoder>>;

/** A prompt message holds one block, which every revision can carry in some form. */
function promptMessageFor(revision: Revision, message: Obj): Obj {
  const content = message["content"];
  const block = isObj(content) ? blockFor(revision, content) : content;
  return block === content ? message : withFields(message, { content: block });
}

/** The result of `method` (a request the client sent) as `version` has it. */
export function encodeResultFor(version: ProtocolVersion, method: string, result: unknown): unknown {
  const revision = revisionOf(version);
  const encode = RESULTS[method];
  return revision.complete || !encode || !isObj(result) ? result : encode(revision, result);
}

/** The requests and notifications a server sends that not every revision has, and the feature each comes with. */
const ONLY_WITH: Readonly<Partial<Record<string, Feature>>> = {
  "elicitation/create": "elicitation",
  "tasks/get": "tasks",
  "tasks/result": "tasks",
  "tasks/list": "tasks",
  "tasks/cancel": "tasks",
  "notifications/tasks/status": "tasks",
  "notifications/elicitation/complete": "urlElicitation",
} satisfies Partial<Record<RequestMethod | NotificationMethod, Feature>>;

function lacks(revision: Revision, method: string): boolean {
  const feature = ONLY_WITH[method];
  return feature !== undefined && !revision.has[feature];
}

/** The params of a notification the server sends, as `version` has them; `NOT_IN_REVISION` when it has no such notification. */
export function encodeNotificationFor(version: ProtocolVersion, method: string, params: unknown): unknown {
  const revision = revisionOf(version);
  if (revision.complete) return params;
  if (lacks(revision, method)) return NOT_IN_REVISION;
  if (!isObj(params)) return params;
  // Before 2025-11-25 a cancellation names its request; one that does not (a task's) has no form there.
  if (method === NOTIFICATIONS.cancelled && params["requestId"] === undefined) return NOT_IN_REVISION;
  return method === NOTIFICATIONS.progress && !revision.has.progressMessage ? without(params, ["message"]) : params;
}

/** The params of a request the server sends, as `version` has them; `NOT_IN_REVISION` when it has no such request (or mode). */
export function encodeServerRequestFor(version: ProtocolVersion, method: string, params: unknown): unknown {
  const revision = revisionOf(version);
  if (revision.complete) return params;
  if (lacks(revision, method)) return NOT_IN_REVISION;
  if (!isObj(params)) return params;
  if (method === METHODS.samplingCreateMessage) return samplingFor(revision, params);
  return method === METHODS.elicitationCreate ? elicitationFor(params) : params;
}
