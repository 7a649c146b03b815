/**
 * `headers` and then `added`, in a new object. Not `{ ...headers, name: value }`: on Node 20's V8
 * each property after a spread costs about half a microsecond, more than the rest of a message's
 * headers; copying with `Object.assign` costs a tenth of that.
 */
export function headersWith(headers: Readonly<Record<string, string>>, added: Readonly<Record<string, string>>): Record<string, string> {
  return Object.assign({}, headers, added);
}
