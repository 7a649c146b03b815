// The way a desktop or CLI host on Node finishes an authorization code flow (RFC 8252 §7.3): a
// listener on 127.0.0.1 is the redirect URI, the system browser is opened on the authorization URL,
// and the callback the browser brings back is the flow's answer. The page the browser lands on says
// it can be closed; it shows nothing of the callback.
import type { spawn } from "node:child_process";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { authError } from "../auth/client/auth-error.js";
import type { Interaction } from "../auth/client/authorizer.js";

export interface LoopbackOptions {
  /** The port to listen on (default 0: a free one, which the redirect URI then names). */
  readonly port?: number;
  /** The redirect URI's path (default `/callback`). */
  readonly path?: string;
  /** Opens the authorization URL for the user (default: the system browser). */
  readonly open?: (authorizationUrl: string) => void | Promise<void>;
  /** How long the user has to come back (default 5 minutes). */
  readonly timeoutMs?: number;
}

export interface LoopbackInteraction {
  /** `http://127.0.0.1:<port><path>`: register it, and give it to the Authorizer as its `redirectUri`. */
  readonly redirectUri: string;
  readonly interact: Interaction;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const PAGE = "<!doctype html><meta charset=utf-8><title>Authorized</title><p>You can close this window and go back to the application.</p>";

/** Starts the listener; the flows it serves wait for their callback, each by its `state`. */
export async function loopbackInteraction(options: LoopbackOptions = {}): Promise<LoopbackInteraction> {
  const path = options.path ?? "/callback";
  const waiting = new Map<string, (callbackUrl: string) => void>();
  // Known once the server listens; no request reaches it before.
  let redirectUri = "";
  // Loaded here, not imported: a process that imports the Node entry and never authorizes (a stdio server) pays nothing for node:http.
  const server = process
    .getBuiltinModule("node:http")
    .createServer((request, response) => answer(request, response, path, waiting, redirectUri));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  const open = options.open ?? ((url: string) => systemBrowser.open(url));
  const interact: Interaction = async (authorizationUrl, signal) => {
    const state = new URL(authorizationUrl).searchParams.get("state") ?? "";
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const came = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => stop(authError("authorization-denied", `Nobody came back to ${redirectUri} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const stop = (error: unknown): void => {
        clearTimeout(timer);
        waiting.delete(state);
        signal.removeEventListener("abort", aborted);
        reject(error);
      };
      const aborted = (): void => stop(signal.reason);
      signal.addEventListener("abort", aborted, { once: true });
      waiting.set(state, (callbackUrl) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", aborted);
        resolve(callbackUrl);
      });
    });
    await open(authorizationUrl);
    return came;
  };
  return { redirectUri, interact, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function answer(
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  waiting: Map<string, (callbackUrl: string) => void>,
  redirectUri: string,
): void {
  // A server's request always has its URL; a callback without a state finds no flow.
  const url = new URL(request.url as string, "http://127.0.0.1");
  const state = url.searchParams.get("state");
  const resume = request.method === "GET" && url.pathname === path && state !== null ? waiting.get(state) : undefined;
  if (resume === undefined) {
    response.writeHead(404, { "content-type": "text/plain" }).end("No authorization is waiting here.");
    return;
  }
  waiting.delete(state as string);
  response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(PAGE);
  resume(`${redirectUri}${url.search}`);
}

/** How a URL is opened in the system's default browser: the platform's command, detached and let go of. */
export const systemBrowser = {
  open(url: string, platform: string = process.platform, run: typeof spawn = process.getBuiltinModule("node:child_process").spawn): void {
    const [command, args] =
      platform === "darwin" ? ["open", [url]] : platform === "win32" ? ["cmd", ["/c", "start", "", url]] : ["xdg-open", [url]];
    const child = run(command, args, { stdio: "ignore", detached: true });
    // A missing opener leaves the user to open the URL: the flow still waits for the callback.
    child.on("error", () => undefined);
    child.unref();
  },
};
