// The 2026-07-28 (stateless) era: tools/call with the revision's `_meta` (and, over HTTP, its headers),
// no initialize, no session. Every contender is called by the same raw client
// (`impls/stateless-client.mjs`), so only the server differs. HTTP on 127.0.0.1, server and client in
// this process: ours (`streamableHttpHandler` served by `serveHttp`), SDK 2.x (`createMcpHandler`
// through the same node:http bridge), and the limit's node:http server. Stdio: the server children,
// ours also called in the session era by the same line client (initialize, then plain tools/call).
import { fileURLToPath } from "node:url";
import { limitHttpServer } from "../impls/limit.mjs";
import { oursStatelessHttp, oursStdio } from "../impls/ours.mjs";
import { sdk2StatelessHttp, sdk2Stdio } from "../impls/sdk2.mjs";
import { sessionStdioClient, statelessHttpClient, statelessStdioClient } from "../impls/stateless-client.mjs";

const overHttp = (serve) => async () => {
  const served = await serve();
  return statelessHttpClient(served.url, served.close);
};

const limitServed = async () => {
  const served = await limitHttpServer();
  return { url: `${served.url}/mcp`, close: served.close };
};

export const HTTP_2026 = { ours: overHttp(oursStatelessHttp), sdk2: overHttp(sdk2StatelessHttp), limit: overHttp(limitServed) };

const script = (name) => fileURLToPath(new URL(`../servers/${name}-stdio.mjs`, import.meta.url));

/** `session`: our child in the session era, called by the same line client. */
export const STDIO_2026 = {
  ours: () => statelessStdioClient(script("ours")),
  sdk2: () => statelessStdioClient(script("sdk2-2026")),
  limit: () => statelessStdioClient(script("limit")),
  session: () => sessionStdioClient(script("ours")),
};

/**
 * Our client in the stateless era over stdio: every contender calls our child (dual-era), so only the
 * client differs, and only this process's CPU is counted. Ours finds the era by itself (a
 * server/discover probe, then 2026-07-28 requests); SDK 2.x is pinned to 2026-07-28; the limit is the
 * raw line client; `session` is our client pinned to the session era against the same child.
 */
export const STDIO_2026_CLIENT = {
  ours: () => oursStdio(script("ours"), {}),
  sdk2: () => sdk2Stdio(script("ours"), { pin: "2026-07-28" }),
  limit: () => statelessStdioClient(script("ours")),
  session: () => oursStdio(script("ours")),
};
