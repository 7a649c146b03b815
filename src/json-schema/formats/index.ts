import { isDate, isDateTime, isDuration, isTime } from "./date-time.js";
import { isEmail, isHostname, isIPv4, isIPv6 } from "./network.js";
import { isUri, isUriReference } from "./uri.js";

const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
const JSON_POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;

/** An ECMA-262 regular expression in its strict (`u` flag) grammar, where `\a` or `\_` is an error. */
function isRegex(text: string): boolean {
  try {
    return new RegExp(text, "u") instanceof RegExp;
  } catch {
    return false;
  }
}

/** The formats asserted under `formats: "assert"`; any other format stays an annotation. */
export const FORMAT_CHECKERS: ReadonlyMap<string, (text: string) => boolean> = new Map([
  ["date-time", isDateTime],
  ["date", isDate],
  ["time", isTime],
  ["duration", isDuration],
  ["email", isEmail],
  ["hostname", isHostname],
  ["ipv4", isIPv4],
  ["ipv6", isIPv6],
  ["uri", isUri],
  ["uri-reference", isUriReference],
  ["uuid", (text: string) => UUID.test(text)],
  ["json-pointer", (text: string) => JSON_POINTER.test(text)],
  ["regex", isRegex],
]);
