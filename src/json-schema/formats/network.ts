// Internet addresses and names: ipv4, ipv6, hostname (RFC 1123 letters-digits-hyphens), email (RFC 5321).

const IPV4_OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = new RegExp(`^${IPV4_OCTET}(?:\\.${IPV4_OCTET}){3}$`);
const IPV6_CHARACTERS = /^[0-9A-Fa-f:.]+$/;
const IPV6_GROUP = /^[0-9A-Fa-f]{1,4}$/;
const IPV6_GROUP_COUNT = 8;
const HOSTNAME_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const MAX_HOSTNAME_LENGTH = 253;
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const EMAIL_LOCAL_PART = new RegExp(`^(?:${ATOM}(?:\\.${ATOM})*|"(?:[^"\\\\\\r\\n]|\\\\.)*")$`);

export function isIPv4(text: string): boolean {
  return IPV4.test(text);
}

/** Eight hex groups, one `::` standing for one or more zero groups, an IPv4 tail counting as two. */
export function isIPv6(text: string): boolean {
  if (!IPV6_CHARACTERS.test(text)) return false;
  const tailAt = text.lastIndexOf(":") + 1;
  const tail = text.slice(tailAt);
  if (tail.includes(".") && !isIPv4(tail)) return false;
  const groupsText = tail.includes(".") ? `${text.slice(0, tailAt)}0:0` : text;
  const halves = groupsText.split("::");
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === "" ? [] : half.split(":")));
  if (!groups.every((group) => IPV6_GROUP.test(group))) return false;
  return halves.length === 2 ? groups.length < IPV6_GROUP_COUNT : groups.length === IPV6_GROUP_COUNT;
}

export function isHostname(text: string): boolean {
  return text.length <= MAX_HOSTNAME_LENGTH && text.split(".").every((label) => HOSTNAME_LABEL.test(label));
}

/** A dot-atom or quoted local part, then a hostname or an address literal (`[127.0.0.1]`, `[IPv6:::1]`). */
export function isEmail(text: string): boolean {
  const at = text.lastIndexOf("@");
  return at > 0 && EMAIL_LOCAL_PART.test(text.slice(0, at)) && isEmailDomain(text.slice(at + 1));
}

function isEmailDomain(domain: string): boolean {
  if (!domain.startsWith("[") || !domain.endsWith("]")) return isHostname(domain);
  const literal = domain.slice(1, -1);
  return literal.startsWith("IPv6:") ? isIPv6(literal.slice("IPv6:".length)) : isIPv4(literal);
}
