/** The media type of a header value without parameters, lower-cased ("application/json; charset=utf-8" → "application/json"). */
function essenceOf(value: string): string {
  const parameters = value.indexOf(";");
  return (parameters < 0 ? value : value.slice(0, parameters)).trim().toLowerCase();
}

function refused(range: string): boolean {
  return range
    .split(";")
    .slice(1)
    .some((parameter) => /^\s*q\s*=\s*0(\.0*)?\s*$/i.test(parameter));
}

/** Whether an `Accept` header admits `type`: exactly, by `type/*` or by `*\/*`, unless with q=0. No header admits anything (RFC 9110). */
export function accepts(accept: string | null, type: string): boolean {
  if (accept === null) return true;
  const wildcard = `${type.slice(0, type.indexOf("/"))}/*`;
  return accept.split(",").some((range) => {
    const essence = essenceOf(range);
    return (essence === type || essence === wildcard || essence === "*/*") && !refused(range);
  });
}

export function isJsonContentType(contentType: string | null): boolean {
  return contentType !== null && essenceOf(contentType) === "application/json";
}
