import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { FakeFetch, authFailure, expectAuthFailure } from "./auth-client.test-helpers.js";
import { MAX_METADATA_BYTES, describeAttempts, fetchMetadataDocument } from "./metadata-fetch.js";

const METADATA_URL = new URL("https://as.example.com/.well-known/oauth-authorization-server");

function cancellableBody(text: string): { body: ReadableStream<Uint8Array>; readonly cancelled: boolean } {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull: (controller) => controller.enqueue(new TextEncoder().encode(text)),
    cancel: () => {
      cancelled = true;
    },
  });
  return {
    body,
    get cancelled() {
      return cancelled;
    },
  };
}

describe("fetchMetadataDocument", () => {
  it("GETs the URL asking for JSON and gives the object", async () => {
    const server = new FakeFetch().json(METADATA_URL.href, { issuer: "https://as.example.com" });
    expect(await fetchMetadataDocument(METADATA_URL, { fetch: server.fetch })).toEqual({ document: { issuer: "https://as.example.com" } });
    const [request] = server.requests;
    expect(request?.init.method).toBe("GET");
    expect(request?.init.headers).toEqual({ accept: "application/json" });
    expect(request?.init.signal.aborted).toBe(false);
  });

  it("sends MCP-Protocol-Version and the caller's signal when given", async () => {
    const server = new FakeFetch().json(METADATA_URL.href, {});
    const signal = new AbortController().signal;
    await fetchMetadataDocument(METADATA_URL, { fetch: server.fetch, protocolVersion: "2025-03-26", signal });
    expect(server.requests[0]?.init.headers).toEqual({ accept: "application/json", "mcp-protocol-version": "2025-03-26" });
    expect(server.requests[0]?.init.signal).toBe(signal);
  });

  it.each([302, 400, 401, 403, 404, 410, 429])("counts HTTP %i as not found, and lets the body go", async (status) => {
    const stream = cancellableBody("x");
    const server = new FakeFetch().on(METADATA_URL.href, () => new Response(stream.body, { status }));
    expect(await fetchMetadataDocument(METADATA_URL, { fetch: server.fetch })).toEqual({ missing: `HTTP ${status}` });
    expect(stream.cancelled).toBe(true);
  });

  it("counts a bodiless 404 as not found", async () => {
    const server = new FakeFetch().on(METADATA_URL.href, () => new Response(null, { status: 404 }));
    expect(await fetchMetadataDocument(METADATA_URL, { fetch: server.fetch })).toEqual({ missing: "HTTP 404" });
  });

  it.each([500, 502, 503])("stops at HTTP %i", async (status) => {
    const stream = cancellableBody("down");
    const server = new FakeFetch().on(METADATA_URL.href, () => new Response(stream.body, { status }));
    const error = await expectAuthFailure(
      fetchMetadataDocument(METADATA_URL, { fetch: server.fetch }),
      MCP_CODES.TRANSPORT_ERROR,
      "metadata-unavailable",
    );
    expect(error.message).toBe(`HTTP ${status} from GET ${METADATA_URL.href}: the server failed, so discovery stops here`);
    expect(error.data).toEqual({ reason: "metadata-unavailable", url: METADATA_URL.href, status });
    expect(stream.cancelled).toBe(true);
  });

  it.each([
    ["an HTML page", "<html>login</html>", "not JSON"],
    ["an empty body", "", "not JSON"],
    ["a JSON array", "[]", "not a JSON object"],
    ["JSON null", "null", "not a JSON object"],
    ["a JSON string", '"x"', "not a JSON object"],
  ])("counts %s as not found", async (_name, body, missing) => {
    const server = new FakeFetch().on(METADATA_URL.href, () => new Response(body, { status: 200 }));
    expect(await fetchMetadataDocument(METADATA_URL, { fetch: server.fetch })).toEqual({ missing });
  });

  it("counts a 2xx without a body as not found", async () => {
    const server = new FakeFetch().on(METADATA_URL.href, () => new Response(null, { status: 204 }));
    expect(await fetchMetadataDocument(METADATA_URL, { fetch: server.fetch })).toEqual({ missing: "not JSON" });
  });

  it(`counts a document over maxDocumentBytes (default ${MAX_METADATA_BYTES}) as not found`, async () => {
    const big = JSON.stringify({ pad: "x".repeat(MAX_METADATA_BYTES) });
    const server = new FakeFetch()
      .on(METADATA_URL.href, () => new Response(big))
      .on("https://as.example.com/small", () => new Response('{"a":"12345"}'));
    expect(await fetchMetadataDocument(METADATA_URL, { fetch: server.fetch })).toEqual({
      missing: `not read whole (larger than ${MAX_METADATA_BYTES} bytes, or the body broke off)`,
    });
    expect(await fetchMetadataDocument(new URL("https://as.example.com/small"), { fetch: server.fetch, maxDocumentBytes: 8 })).toEqual({
      missing: "not read whole (larger than 8 bytes, or the body broke off)",
    });
  });

  it("counts a fetch TypeError (a browser's CORS refusal) as not found", async () => {
    const server = new FakeFetch().on(METADATA_URL.href, () => Promise.reject(new TypeError("Failed to fetch")));
    expect(await fetchMetadataDocument(METADATA_URL, { fetch: server.fetch })).toEqual({ missing: "unreachable (Failed to fetch)" });
  });

  it("stops at any other fetch failure, keeping it as the cause", async () => {
    const failure = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:443"), { code: "ECONNREFUSED" });
    const server = new FakeFetch().on(METADATA_URL.href, () => Promise.reject(failure));
    const error = await expectAuthFailure(
      fetchMetadataDocument(METADATA_URL, { fetch: server.fetch }),
      MCP_CODES.TRANSPORT_ERROR,
      "metadata-unavailable",
    );
    expect(error.message).toBe(`GET ${METADATA_URL.href} failed: connect ECONNREFUSED 127.0.0.1:443`);
    expect(error.cause).toBe(failure);
  });

  it("rejects as cancelled when the signal fired before, without fetching", async () => {
    const server = new FakeFetch();
    const controller = new AbortController();
    controller.abort(new Error("user left"));
    const error = await expectAuthFailure(
      fetchMetadataDocument(METADATA_URL, { fetch: server.fetch, signal: controller.signal }),
      MCP_CODES.REQUEST_CANCELLED,
      "cancelled",
    );
    expect((error.cause as Error).message).toBe("user left");
    expect(server.requests).toEqual([]);
  });

  it("rejects as cancelled when the signal fires during the fetch", async () => {
    const controller = new AbortController();
    const server = new FakeFetch().on(METADATA_URL.href, () => {
      controller.abort();
      return Promise.reject(new DOMException("aborted", "AbortError"));
    });
    await expect(fetchMetadataDocument(METADATA_URL, { fetch: server.fetch, signal: controller.signal })).rejects.toThrow(
      authFailure(MCP_CODES.REQUEST_CANCELLED, "cancelled"),
    );
  });
});

describe("describeAttempts", () => {
  it("lists each URL with its outcome", () => {
    expect(
      describeAttempts([
        { url: "https://a/x", outcome: "HTTP 404" },
        { url: "https://a/y", outcome: "not JSON" },
      ]),
    ).toBe("https://a/x: HTTP 404; https://a/y: not JSON");
  });
});
