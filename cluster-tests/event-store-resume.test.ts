// The Streamable HTTP handler with a RedisEventStore: a client that lost a POST's stream mid-way
// resumes it with Last-Event-ID and gets what it missed, then the rest live; a resume from an event the store trimmed
// is refused (400), never served with a gap.
import { afterEach, describe, expect, it } from "vitest";

import { RedisEventStore } from "../src/redis/index.js";
import { Gate, SseReader, httpRequest, openSession, rpc, testServer } from "../src/transport/http-server/http-server.test-helpers.js";
import { streamableHttpHandler } from "../src/transport/http-server/index.js";
import type { HttpHandler } from "../src/transport/http-server/http-server.types.js";
import { uniquePrefix, useRedisServer } from "./support/redis-server.js";

const redis = useRedisServer();
const handlers: HttpHandler[] = [];
afterEach(async () => {
  for (const handler of handlers.splice(0)) await handler.close();
});

async function cutAfterFirstEvent(
  maxEventsPerStream: number,
): Promise<{ handler: HttpHandler; session: string; gate: Gate; firstId: string }> {
  const gate = new Gate();
  const eventStore = new RedisEventStore({ client: await redis.nodeRedis(), prefix: uniquePrefix("resume"), maxEventsPerStream });
  const handler = streamableHttpHandler(testServer(gate), { eventStore });
  handlers.push(handler);
  const session = await openSession(handler);
  const call = new SseReader(
    (
      await handler.fetch(
        httpRequest({ body: rpc(1, "tools/call", { name: "wait", arguments: {}, _meta: { progressToken: "p" } }), session }),
      )
    ).body,
  );
  // The priming event, then the progress the tool sends before it waits: the client cuts there.
  const events = [await call.next(), await call.next()];
  await call.cancel();
  return { handler, session, gate, firstId: events[0]?.id as string };
}

describe("resuming a Streamable HTTP stream from a RedisEventStore", () => {
  it("replays what was missed after the event given", async () => {
    const { handler, session, gate, firstId } = await cutAfterFirstEvent(1000);
    const resumed = new SseReader(
      (await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": firstId } }))).body,
    );
    const missed = await resumed.next();
    expect(JSON.parse(missed?.data as string)).toMatchObject({
      method: "notifications/progress",
      params: { progressToken: "p", message: "waiting" },
    });
    // Then it goes on live: the call's answer comes on the resumed stream.
    gate.open();
    const answer = await resumed.next();
    expect(JSON.parse(answer?.data as string)).toMatchObject({
      id: 1,
      result: { content: [{ type: "text", text: expect.stringContaining("waited in") }] },
    });
    await resumed.cancel();
  });

  it("refuses a resume from an event the store no longer holds", async () => {
    const { handler, session, gate, firstId } = await cutAfterFirstEvent(1);
    const refused = await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": firstId } }));
    expect(refused.status).toBe(400);
    gate.open();
  });
});
