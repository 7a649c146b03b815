// An HTTP handler (ours or an SDK's `fetch`-style one) served on 127.0.0.1 with a free port, each
// exchange told to `record`; closed, handler first, by the cleanup it registers with `defer`.
import { serveHttp } from "../../src/node/index.js";

interface FetchHandler {
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
}

export async function servedRecording(
  handler: FetchHandler,
  record: (request: Request, response: Response) => void,
  defer: (cleanup: () => Promise<void>) => void,
): Promise<URL> {
  const http = await serveHttp(
    async (request) => {
      const response = await handler.fetch(request);
      record(request, response);
      return response;
    },
    { port: 0 },
  );
  defer(async () => {
    await handler.close();
    await http.close();
  });
  return new URL("/mcp", http.url);
}
