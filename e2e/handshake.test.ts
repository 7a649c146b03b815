// The design's whole walk, MCPServer ↔ MCPClient over InMemoryTransport.pair(), once per revision.
import { describe, expect, it } from "vitest";
import { InMemoryTransport, MCP_CODES, PROTOCOL_VERSIONS } from "../src/index.js";
import { walk, walkClient, walkServer } from "./support/walk.js";

describe.each(PROTOCOL_VERSIONS)("MCPServer ↔ MCPClient on %s", (version) => {
  it("walks the whole surface, then disconnects cleanly", async () => {
    const { server, started } = walkServer();
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    const session = await server.start(serverEnd);
    const client = walkClient(version);
    await client.connect(clientEnd);
    expect(session.protocolVersion).toBe(version);
    await walk(client, server, started, version);
    await client.close();
    await session.finished;
    expect(server.sessions.size).toBe(0);
    await expect(client.ping()).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });
});
