import type { BodyText, HttpExchange } from "../http-server.types.js";
import type { RelayMessage } from "./relay-wire.js";

type RelayedRequest = Extract<RelayMessage, { t: "req" }>;

const relayed = /* @__PURE__ */ new WeakSet<HttpExchange>();

/** Whether the exchange came from another instance: it is served here or refused, never relayed again. */
export function isRelayed(exchange: HttpExchange): boolean {
  return relayed.has(exchange);
}

/** A request another instance relayed here, as the handler reads one; `leave()` is its client going away. */
export interface RelayedExchange extends HttpExchange {
  leave(): void;
}

export function relayedExchange(message: RelayedRequest): RelayedExchange {
  const listeners = new Set<() => void>();
  let gone = false;
  const { method, headers, body } = message;
  const url = new URL(message.url);
  const exchange: RelayedExchange = {
    method,
    url,
    // Own keys only: the parsed headers object inherits "constructor" and the like.
    header: (name) => (Object.hasOwn(headers, name) ? (headers[name] as string) : null),
    headers: () => ({ ...headers }),
    text: (maxBytes) => Promise.resolve(textOf(body, maxBytes)),
    onClientGone(listener) {
      if (gone) listener();
      else listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    request: () => new Request(url, { method, headers, body: body ?? null }),
    leave() {
      if (gone) return;
      gone = true;
      for (const listener of listeners) listener();
      listeners.clear();
    },
  };
  relayed.add(exchange);
  return exchange;
}

function textOf(body: string | undefined, maxBytes: number): BodyText {
  if (body === undefined) return { ok: false, tooLarge: false, detail: "the body is empty" };
  return new TextEncoder().encode(body).byteLength > maxBytes ? { ok: false, tooLarge: true } : { ok: true, text: body };
}

/** The exchange again, its body (already read) given back: for serving here a request that could not be relayed. */
export function withBody(exchange: HttpExchange, body: string | undefined): HttpExchange {
  if (body === undefined) return exchange;
  return {
    method: exchange.method,
    url: exchange.url,
    header: (name) => exchange.header(name),
    headers: () => exchange.headers(),
    text: (maxBytes) => Promise.resolve(textOf(body, maxBytes)),
    onClientGone: (listener) => exchange.onClientGone(listener),
    request: () => new Request(exchange.url, { method: exchange.method, headers: exchange.headers(), body }),
  };
}
