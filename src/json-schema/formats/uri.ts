// RFC 3986 URIs and URI references: split with the RFC's own regex (appendix B), then each part's characters checked.
import { isIPv6 } from "./network.js";

const URI_PARTS = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/su;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const UNRESERVED_AND_SUB_DELIMS = "A-Za-z0-9\\-._~!$&'()*+,;=";
const PERCENT_ENCODED = "%[0-9A-Fa-f]{2}";
const PATH = new RegExp(`^(?:[${UNRESERVED_AND_SUB_DELIMS}:@/]|${PERCENT_ENCODED})*$`);
const QUERY_OR_FRAGMENT = new RegExp(`^(?:[${UNRESERVED_AND_SUB_DELIMS}:@/?]|${PERCENT_ENCODED})*$`);
const USER_INFO = new RegExp(`^(?:[${UNRESERVED_AND_SUB_DELIMS}:]|${PERCENT_ENCODED})*$`);
const REGISTERED_NAME = new RegExp(`^(?:[${UNRESERVED_AND_SUB_DELIMS}]|${PERCENT_ENCODED})*$`);
const HOST_AND_PORT = /^(\[[^\]]*\]|[^:]*)(?::\d*)?$/;

/** An absolute URI: a scheme is required. */
export function isUri(text: string): boolean {
  const parts = URI_PARTS.exec(text);
  return parts !== null && parts[1] !== undefined && arePartsValid(parts);
}

/** A URI or a relative reference (`/a/b`, `../c?d`, `#e`). */
export function isUriReference(text: string): boolean {
  const parts = URI_PARTS.exec(text);
  return parts !== null && arePartsValid(parts);
}

function arePartsValid([, scheme, authority, path, query, fragment]: RegExpExecArray): boolean {
  return (
    isAbsentOr(SCHEME, scheme) &&
    (authority === undefined || isAuthority(authority)) &&
    isAbsentOr(PATH, path) &&
    isAbsentOr(QUERY_OR_FRAGMENT, query) &&
    isAbsentOr(QUERY_OR_FRAGMENT, fragment)
  );
}

function isAbsentOr(syntax: RegExp, part: string | undefined): boolean {
  return part === undefined || syntax.test(part);
}

function isAuthority(authority: string): boolean {
  const userInfoEnd = authority.lastIndexOf("@");
  const host = HOST_AND_PORT.exec(authority.slice(userInfoEnd + 1))?.[1];
  return USER_INFO.test(authority.slice(0, Math.max(userInfoEnd, 0))) && host !== undefined && isHost(host);
}

function isHost(host: string): boolean {
  return host.startsWith("[") ? isIPv6(host.slice(1, -1)) : REGISTERED_NAME.test(host);
}
