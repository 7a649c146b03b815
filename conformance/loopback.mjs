// Preloaded into the conformance CLI (`node --import ./conformance/loopback.mjs …/conformance/dist/index.js`).
//
// @modelcontextprotocol/conformance 0.1.16 has no option or environment variable for the address of
// the mock servers it starts in client mode: every one calls `listen(0)` (Express `app.listen(0)` or
// `http.Server#listen(0, cb)`), which binds the unspecified address — every interface. Several of
// them read `server.address().port` right after `listen(0)` returns, so simply adding a host would
// not do: with a host Node resolves it asynchronously and `address()` is still null at that point.
//
// This preload makes every listen without a host (or with a wildcard host) bind 127.0.0.1 instead,
// synchronously, by handing Node a TCP handle already bound to 127.0.0.1. An explicit host is left
// alone; so are pipes, file descriptors and handles. Only the CLI process loads it (it is passed as
// a node flag, not through NODE_OPTIONS, so the clients the CLI spawns do not inherit it).
import net from "node:net";

const LOOPBACK = "127.0.0.1";
const WILDCARD_HOSTS = new Set([undefined, null, "", "0.0.0.0", "::", "::0", "[::]"]);
const DEFAULT_BACKLOG = 511;

// `process.binding` is deprecated (DEP0111) but still offers tcp_wrap on Node 22; it is the only way
// to bind synchronously, which `listen(0)` callers that read `address()` at once depend on.
const { TCP, constants: TCPConstants } = process.binding("tcp_wrap");
// Kept to be called with the server as `this` (originalListen.apply(this, arguments)).
// oxlint-disable-next-line typescript/unbound-method
const originalListen = net.Server.prototype.listen;

function listenOnLoopback(...args) {
  const callback = typeof args.at(-1) === "function" ? args.pop() : undefined;
  const [first] = args;
  let port;
  let host;
  let backlog;
  if (first !== null && typeof first === "object") {
    if (first instanceof TCP || "path" in first || "fd" in first || "handle" in first || "_handle" in first)
      return originalListen.apply(this, arguments);
    ({ port, host, backlog } = first);
  } else if (typeof first === "string" && !/^\d+$/.test(first)) {
    return originalListen.apply(this, arguments); // a pipe or socket path
  } else {
    port = first;
    if (typeof args[1] === "string" || args[1] === undefined || args[1] === null) [, host, backlog] = args;
    else [, backlog] = args;
  }
  if (!WILDCARD_HOSTS.has(host)) return originalListen.apply(this, arguments);

  const handle = new TCP(TCPConstants.SERVER);
  const status = handle.bind(LOOPBACK, Number(port ?? 0));
  if (status !== 0) {
    // Let Node report the error (EADDRINUSE…) its usual way, still on loopback only.
    handle.close();
    return originalListen.call(this, { port: Number(port ?? 0), host: LOOPBACK, backlog }, ...(callback ? [callback] : []));
  }
  return originalListen.call(this, handle, Number(backlog ?? DEFAULT_BACKLOG) || DEFAULT_BACKLOG, ...(callback ? [callback] : []));
}

net.Server.prototype.listen = listenOnLoopback;
