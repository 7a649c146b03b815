// RFC 3986 section 5.2: resolving a reference (`other.json#/$defs/a`) against a base URI, as `$id` and `$ref` need.

interface UriParts {
  readonly scheme: string | undefined;
  readonly authority: string | undefined;
  readonly path: string;
  readonly query: string | undefined;
  readonly fragment: string | undefined;
}

interface AbsoluteUriParts extends UriParts {
  readonly scheme: string;
}

const URI_PARTS = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/su;

/** `reference` made absolute against `base`, which must itself be absolute (have a scheme). */
export function resolveUri(reference: string, base: string): string {
  const ref = parseUri(reference);
  if (ref.scheme !== undefined) return composeUri({ ...ref, scheme: ref.scheme, path: removeDotSegments(ref.path) });
  const from = parseUri(base) as AbsoluteUriParts;
  if (ref.authority !== undefined) return composeUri({ ...ref, scheme: from.scheme, path: removeDotSegments(ref.path) });
  if (ref.path === "") return composeUri({ ...from, query: ref.query ?? from.query, fragment: ref.fragment });
  const path = ref.path.startsWith("/") ? ref.path : mergePaths(from, ref.path);
  return composeUri({ ...from, path: removeDotSegments(path), query: ref.query, fragment: ref.fragment });
}

/** Whether `text` is a URI with a scheme (`https://example.com/defs.json`, `urn:example:defs`), not a relative reference. */
export function isAbsoluteUri(text: string): boolean {
  return parseUri(text).scheme !== undefined;
}

/** The URI without its fragment, and the fragment (`""` when there is none). */
export function splitFragment(uri: string): [string, string] {
  const hash = uri.indexOf("#");
  return hash === -1 ? [uri, ""] : [uri.slice(0, hash), uri.slice(hash + 1)];
}

function parseUri(text: string): UriParts {
  // Every part of the pattern is optional, so it matches any string.
  const match = URI_PARTS.exec(text) as RegExpExecArray;
  return { scheme: match[1], authority: match[2], path: match[3] as string, query: match[4], fragment: match[5] };
}

function mergePaths(base: UriParts, path: string): string {
  if (base.authority !== undefined && base.path === "") return `/${path}`;
  return base.path.slice(0, base.path.lastIndexOf("/") + 1) + path;
}

function removeDotSegments(path: string): string {
  const absolute = path.startsWith("/");
  const segments = (absolute ? path.slice(1) : path).split("/");
  const output: string[] = [];
  for (const segment of segments) {
    if (segment === "..") output.pop();
    else if (segment !== ".") output.push(segment);
  }
  const last = segments.at(-1);
  if (last === "." || last === "..") output.push("");
  return (absolute ? "/" : "") + output.join("/");
}

function composeUri({ scheme, authority, path, query, fragment }: AbsoluteUriParts): string {
  let text = `${scheme}:`;
  if (authority !== undefined) text += `//${authority}`;
  text += path;
  if (query !== undefined) text += `?${query}`;
  if (fragment !== undefined) text += `#${fragment}`;
  return text;
}
