import type { RequestMethod } from "../constants/index.js";
import { isJsonObject } from "../json-schema/json-values.js";
import { decodeHeaderValue, trimFieldValue } from "./header-encoding.js";
import { headerParamArgument, headerParamText, type HeaderParam } from "./header-params.js";

export { decodeHeaderValue, encodeHeaderValue } from "./header-encoding.js";
export { headerParamArgument, headerParamsOf, headerParamText, headerParamValue, type HeaderParam } from "./header-params.js";

/** Header names as `Headers` reports them (lower case). */
export const STATELESS_HEADERS = {
  method: "mcp-method",
  name: "mcp-name",
  paramPrefix: "mcp-param-",
  protocolVersion: "mcp-protocol-version",
} as const;

/**
 * The body field `Mcp-Name` mirrors, by method (the tasks extension routes its per-task requests by
 * `taskId`). Literal names: a Map of METHODS' members would leave their reads in bundles that never use it.
 */
const NAME_FIELDS: ReadonlyMap<string, string> = /* @__PURE__ */ new Map([
  ["tools/call", "name"],
  ["prompts/get", "name"],
  ["resources/read", "uri"],
  ["tasks/get", "taskId"],
  ["tasks/update", "taskId"],
  ["tasks/cancel", "taskId"],
] satisfies [RequestMethod | "tasks/update", string][]);

/** How much of a value an error message repeats. */
const SHOWN_CHARS = 64;

/**
 * What `Mcp-Name` must carry for this request: params.name (tools/call, prompts/get), params.uri
 * (resources/read), params.taskId (tasks/get, tasks/update, tasks/cancel); undefined when the method
 * has none or the field is not a string (the body's own validation rejects that request).
 */
export function expectedMcpName(method: string, params: Record<string, unknown> | undefined): string | undefined {
  const field = NAME_FIELDS.get(method);
  const value = field === undefined || !isJsonObject(params) ? undefined : params[field];
  return typeof value === "string" ? value : undefined;
}

/**
 * The server's check of one stateless-era POST against its body. `header(name)` is asked for
 * lower-case names and must match them case-insensitively (as `Headers.get` does); null means absent.
 * - `Mcp-Method` is present and equal to `method` (case-sensitive; never Base64).
 * - `Mcp-Name` is present and, decoded, equal to `expectedMcpName(method, params)` when that is defined.
 * - For each of `toolParams` (the called tool's, for tools/call): its `Mcp-Param-*` header is present
 *   exactly when the argument is (not null); decoded, it equals the argument's text, an integer
 *   compared by value (`42.0` is 42); an argument with no header form (see `headerParamText`) fails.
 * Returns undefined when all agree, else the message of a -32020 HeaderMismatch error (HTTP 400),
 * which names the header and repeats at most 64 characters of any value. Never throws on wire data.
 */
export function checkStatelessHeaders(
  header: (name: string) => string | null,
  method: string,
  params: Record<string, unknown> | undefined,
  toolParams: readonly HeaderParam[] | undefined,
): string | undefined {
  const problem =
    checkMethod(header(STATELESS_HEADERS.method), method) ??
    checkName(header(STATELESS_HEADERS.name), expectedMcpName(method, params)) ??
    checkParams(header, params, toolParams);
  return problem && `Header mismatch: ${problem}`;
}

function checkMethod(raw: string | null, method: string): string | undefined {
  if (raw === null) return "the Mcp-Method header is missing";
  const value = trimFieldValue(raw);
  return value === method ? undefined : mismatch("Mcp-Method", value, method);
}

function checkName(raw: string | null, expected: string | undefined): string | undefined {
  if (expected === undefined) return undefined;
  if (raw === null) return "the Mcp-Name header is missing";
  const decoded = decodeHeaderValue(raw);
  if (!decoded.ok) return `the Mcp-Name header value ${decoded.reason}`;
  return decoded.value === expected ? undefined : mismatch("Mcp-Name", decoded.value, expected);
}

function checkParams(
  header: (name: string) => string | null,
  params: Record<string, unknown> | undefined,
  toolParams: readonly HeaderParam[] | undefined,
): string | undefined {
  const args = isJsonObject(params) ? params["arguments"] : undefined;
  for (const param of toolParams ?? []) {
    const problem = checkParam(header(STATELESS_HEADERS.paramPrefix + param.header.toLowerCase()), param, headerParamArgument(param, args));
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function checkParam(raw: string | null, param: HeaderParam, value: unknown): string | undefined {
  const name = `Mcp-Param-${param.header}`;
  const argument = `argument ${show(param.path.join("."))}`;
  if (value === undefined || value === null)
    return raw === null ? undefined : `the ${name} header is sent but the ${argument} is absent or null`;
  const expected = headerParamText(param, value);
  if (expected === undefined)
    return `the ${argument} is not ${param.type === "integer" ? "a safe integer" : `a ${param.type}`}, so no ${name} header can carry it`;
  if (raw === null) return `the ${name} header is missing (the ${argument} is present)`;
  const decoded = decodeHeaderValue(raw);
  if (!decoded.ok) return `the ${name} header value ${decoded.reason}`;
  const equal = param.type === "integer" ? integerText(decoded.value) === expected : decoded.value === expected;
  return equal ? undefined : mismatch(name, decoded.value, expected);
}

/**
 * A decimal integer in its shortest form (`-042.00` → `-42`, `-0` → `0`), or undefined when the text
 * is not one: a sign, digits, and a fraction of zeros only. Exponents and hex are not accepted.
 */
function integerText(text: string): string | undefined {
  const match = /^([+-]?)(\d+)(?:\.0+)?$/.exec(text);
  if (match === null) return undefined;
  const digits = (match[2] as string).replace(/^0+(?=\d)/, "");
  return match[1] === "-" && digits !== "0" ? `-${digits}` : digits;
}

function mismatch(name: string, headerValue: string, bodyValue: string): string {
  return `${name} header value ${show(headerValue)} does not match body value ${show(bodyValue)}`;
}

/** A value quoted for a message, cut to its first 64 characters (never inside a surrogate pair). */
function show(value: string): string {
  if (value.length <= SHOWN_CHARS) return `'${value}'`;
  const cut = /[\uD800-\uDBFF]/.test(value.charAt(SHOWN_CHARS - 1)) ? SHOWN_CHARS - 1 : SHOWN_CHARS;
  return `'${value.slice(0, cut)}…'`;
}
