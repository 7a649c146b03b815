import { Server, createServer } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { serveHttp } from "./http-serve.js";

const hello = async () => new Response("hello");

describe("serveHttp", () => {
  it("listens on 127.0.0.1 by default and stops on close", async () => {
    const served = await serveHttp(hello, { port: 0 });
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(await (await fetch(served.url)).text()).toBe("hello");
    await served.close();
    await expect(fetch(served.url)).rejects.toThrow("fetch failed");
  });

  it("listens on the host it is given, and names it in its URL, an IPv6 one in brackets", async () => {
    const listen = Object.getOwnPropertyDescriptor(Server.prototype, "listen")?.value as (
      this: Server,
      port: number,
      host: string,
      callback: () => void,
    ) => Server;
    const hosts: unknown[] = [];
    // Tests listen on 127.0.0.1 only: the host serveHttp asks for is recorded, and 127.0.0.1 listened on instead.
    vi.spyOn(Server.prototype, "listen").mockImplementation(function (this: Server, port: unknown, host: unknown, callback: unknown) {
      hosts.push(host);
      return listen.call(this, port as number, "127.0.0.1", callback as () => void);
    } as Server["listen"]);
    const served = await serveHttp(hello, { port: 0, host: "::1" });
    const { port } = new URL(served.url);
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("hello");
    await served.close();
    expect(hosts).toEqual(["::1"]);
    expect(served.url).toMatch(/^http:\/\/\[::1\]:\d+\/$/);
  });

  it("drops open connections on close, so a long SSE response cannot hold it up", async () => {
    const served = await serveHttp(
      async () =>
        new Response(
          new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new TextEncoder().encode("data: x\n\n")) }),
        ),
      { port: 0 },
    );
    const response = await fetch(served.url);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await served.close();
    await expect(reader.read()).rejects.toThrow("terminated");
  });

  it("rejects when the port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    await expect(serveHttp(hello, { port })).rejects.toMatchObject({ code: "EADDRINUSE" });
    await new Promise((resolve) => blocker.close(resolve));
  });
});
