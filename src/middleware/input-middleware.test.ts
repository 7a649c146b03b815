// Layers around a server handler's requests for input, through a real server and our MCPClient in
// memory, in both eras (server-to-client requests in the session era, input-required rounds in the
// stateless era): a layer answers without asking the client, changes what is asked or answered, sees
// every ask with the handler's context; one method or all; the registrations refused.
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../error-codes/error-codes.js";
import { aroundInput, type InputMiddleware } from "./input-middleware.js";
import { interviewClient, interviewed, interviewer } from "./interview.test-helpers.js";

describe.each(["session", "stateless"] as const)("aroundInput, %s era", (era) => {
  it("lets a layer answer without the client, change what is asked and what comes back, and see every ask", async () => {
    const asked: string[] = [];
    const seen: string[] = [];
    // Each aroundInput wraps the context the layers after it and the handler get: the one added last is nearest the handler, and sees its
    // asks first.
    const server = interviewer()
      .use(
        aroundInput(
          "sampling/createMessage",
          () => () => Promise.resolve({ role: "assistant", content: { type: "text", text: "from policy" }, model: "policy" }),
        ),
      )
      .use(
        aroundInput("elicitation/create", (next) => async (request, context) => {
          const answer = await next(
            { ...request, params: { ...request.params, message: `[${context.era}] ${request.params.message}` } },
            context,
          );
          return { ...answer, content: { name: `${String(answer.content?.["name"])}!` } };
        }),
      )
      .use(aroundInput((next) => (request, context) => (seen.push(`${request.method} ${context.era}`), next(request, context))));
    const client = await interviewClient(server, era, asked);
    const said = await interviewed(client);
    expect(said).toMatchObject({ action: "accept", name: "Ada!", model: "policy", text: "from policy", roots: ["file:///work"] });
    // The sampling never reached the client; the elicitation did, changed.
    expect(asked).toEqual([`elicitation [${era}] Your name?`]);
    // Each ask went through the outer layer (in the stateless era a round runs the handler again, and its asks with it).
    expect(new Set(seen)).toEqual(new Set([`elicitation/create ${era}`, `sampling/createMessage ${era}`, `roots/list ${era}`]));
    await client.close();
  });

  it("hands the handler its own context otherwise: scope, progress, log", async () => {
    const plain = await interviewed(await interviewClient(interviewer(), era, []));
    const layered = await interviewed(await interviewClient(interviewer().use(aroundInput("roots/list", (next) => next)), era, []));
    expect(layered["context"]).toEqual(plain["context"]);
    expect(layered["context"]).toMatchObject({ era, client: "asked", id: expect.any(String), aborted: false });
  });

  it("passes the rest of the handler's context through: who asks, the log level, its progress and log messages", async () => {
    const client = await interviewClient(interviewer().use(aroundInput("roots/list", (next) => next)), era, [], { subject: "ada" });
    const heard: string[] = [];
    client.on("log", ({ level, data }) => heard.push(`log ${level} ${String(data)}`));
    await client.setLoggingLevel("info");
    const result = await client.callTool(
      "interview",
      {},
      { onProgress: ({ progress, total }) => heard.push(`progress ${progress}/${String(total)}`) },
    );
    const said = JSON.parse((result.content[0] as { text: string }).text) as { context: Record<string, unknown> };
    expect(said.context).toMatchObject({ level: "info", inbound: { authInfo: { subject: "ada" } }, principal: { subject: "ada" } });
    await expect.poll(() => heard).toEqual(["progress 1/1", "log info interviewed"]);
    await client.close();
  });

  it("makes what a layer throws the handler's failure to ask", async () => {
    const server = interviewer().use(aroundInput("elicitation/create", () => () => Promise.reject(new Error("no asking today"))));
    const client = await interviewClient(server, era, []);
    const result = await client.callTool("interview");
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("no asking today");
    await client.close();
  });
});

describe("aroundInput's registration", () => {
  it("refuses a method that is no request for input, a layer that is no function, and one that gives no handler", () => {
    expect(() => aroundInput("tools/call" as "roots/list", (next) => next)).toThrow(
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message: "aroundInput sees sampling/createMessage, elicitation/create and roots/list, not tools/call",
      }),
    );
    expect(() => aroundInput("roots/list", "no" as unknown as InputMiddleware<"roots/list">)).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: "A middleware is a function from the next handler to a handler" }),
    );
    expect(() => aroundInput((() => undefined) as unknown as InputMiddleware)).toThrow(
      expect.objectContaining({ message: expect.stringContaining("An input middleware gave no handler") }),
    );
  });
});
