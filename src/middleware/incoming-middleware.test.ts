// The client's incoming layers, through a real server whose tool asks for input and our MCPClient in
// memory, in both eras (server-to-client requests in the session era, an input-required round in the
// stateless era): a layer answers in the handler's place, changes its answer, or sees every request
// with its era; methods the client never answers are refused.
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../error-codes/error-codes.js";
import { interviewClient, interviewed, interviewer } from "./interview.test-helpers.js";
import type { IncomingContext, IncomingMiddleware } from "./incoming-middleware.js";

const connected = (era: "session" | "stateless", asked: string[]) => interviewClient(interviewer(), era, asked);

describe.each(["session", "stateless"] as const)("incoming middleware, %s era", (era) => {
  it("lets a layer answer in the handler's place or change its answer, and shows every request with its era", async () => {
    const asked: string[] = [];
    const seen: [string, IncomingContext["era"]][] = [];
    const client = await connected(era, asked);
    client
      .useIncoming((next) => (request, context) => (seen.push([request.method, context.era]), next(request, context)))
      .useIncoming("elicitation/create", () => () => Promise.resolve({ action: "decline" }))
      .useIncoming("sampling/createMessage", (next) => async (request, context) => {
        const answer = await next(request, context);
        return { ...answer, model: `checked ${answer.model}` };
      });
    expect(await interviewed(client)).toMatchObject({
      action: "decline",
      name: null,
      model: "checked client-model",
      text: "echo 1",
      roots: ["file:///work"],
    });
    // The elicitation never reached the handler; the sampling did.
    expect(asked).toEqual(["sampling"]);
    expect(seen).toEqual([
      ["elicitation/create", era],
      ["sampling/createMessage", era],
      ["roots/list", era],
    ]);
    await client.close();
  });

  it("answers as before without layers", async () => {
    const asked: string[] = [];
    const client = await connected(era, asked);
    expect(await interviewed(client)).toMatchObject({
      action: "accept",
      name: "Ada",
      model: "client-model",
      text: "echo 1",
      roots: ["file:///work"],
    });
    expect(asked).toEqual(["elicitation Your name?", "sampling"]);
    await client.close();
  });
});

const passThrough: IncomingMiddleware = (next) => next;

describe("incoming middleware registration", () => {
  it("refuses a method the server never asks a client for", async () => {
    const client = await connected("session", []);
    expect(() => client.useIncoming("tools/call" as "roots/list", (next) => next)).toThrow(
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message: "No client middleware sees tools/call: the server asks for sampling/createMessage, elicitation/create, roots/list",
      }),
    );
    expect(() => client.useIncoming("roots/list", passThrough)).not.toThrow();
    await client.close();
  });
});
