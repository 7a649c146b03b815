// HTTP on 127.0.0.1, server and client in this process: Streamable HTTP with SSE answers, with JSON
// answers, and legacy HTTP+SSE. The limit is a plain node:http server answering a JSON POST with a
// JSON body, called with node:http. Our client is built without a `fetchImpl` (its Node default,
// `nodeFetch()`), or, with `platformFetch`, given the platform fetch; the SDKs' over the platform fetch, their default.
// SDK 2.x has no legacy HTTP+SSE server.
import { limitHttp } from "../impls/limit.mjs";
import { oursHttp } from "../impls/ours.mjs";
import { sdk1Http } from "../impls/sdk1.mjs";
import { sdk2Http } from "../impls/sdk2.mjs";

export function httpContenders(mode, { platformFetch = false } = {}) {
  const contenders = { ours: () => oursHttp(mode, { platformFetch }), sdk1: () => sdk1Http(mode) };
  if (mode !== "legacy") contenders.sdk2 = () => sdk2Http(mode);
  contenders.limit = limitHttp;
  return contenders;
}
