/**
 * The messages of the relay between instances, on the `InstanceBus`. A request (`req`) goes to the
 * instance serving its session, which takes it (`ack`) and answers with the reply's head and, for an
 * event stream, its text in numbered pieces (`data`) until `end` or `abort`; the relaying instance
 * says `gone` when its client leaves. `r` names one relayed request, unique at the relaying instance.
 */
export type RelayMessage =
  | {
      readonly t: "req";
      readonly r: string;
      readonly from: string;
      readonly method: string;
      readonly url: string;
      readonly headers: Record<string, string>;
      readonly body?: string;
    }
  | { readonly t: "ack"; readonly r: string }
  | {
      readonly t: "head";
      readonly r: string;
      readonly status: number;
      readonly headers: Record<string, string>;
      readonly body?: string;
      readonly stream: boolean;
    }
  | { readonly t: "data"; readonly r: string; readonly n: number; readonly text: string }
  | { readonly t: "end"; readonly r: string; readonly n: number }
  | { readonly t: "abort"; readonly r: string; readonly n: number }
  | { readonly t: "gone"; readonly r: string; readonly from: string };

const FIELDS: Readonly<Record<RelayMessage["t"], Readonly<Record<string, string>>>> = {
  req: { r: "string", from: "string", method: "string", url: "string", headers: "object" },
  ack: { r: "string" },
  head: { r: "string", status: "number", headers: "object", stream: "boolean" },
  data: { r: "string", n: "number", text: "string" },
  end: { r: "string", n: "number" },
  abort: { r: "string", n: "number" },
  gone: { r: "string", from: "string" },
};

/** A bus message as a relay message; undefined for anything else (another version, or not ours). */
export function parseRelayMessage(text: string): RelayMessage | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof message !== "object" || message === null) return undefined;
  const t = (message as { t?: unknown }).t;
  // Own keys only: "constructor" is no kind of message.
  if (typeof t !== "string" || !Object.hasOwn(FIELDS, t)) return undefined;
  const fields = FIELDS[t as RelayMessage["t"]];
  const record = message as Record<string, unknown>;
  for (const [name, type] of Object.entries(fields)) if (typeof record[name] !== type || record[name] === null) return undefined;
  if (record["body"] !== undefined && typeof record["body"] !== "string") return undefined;
  // Checked where the kind has headers (an object by now); elsewhere a stray field is ignored.
  if (fields["headers"] !== undefined && !Object.values(record["headers"] as object).every((value) => typeof value === "string"))
    return undefined;
  return message as RelayMessage;
}
