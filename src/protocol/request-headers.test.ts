import { describe, expect, it } from "vitest";
import { headerParamsOf } from "./header-params.js";
import { statelessRequestHeaders } from "./request-headers.js";

const schema = {
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    priority: { type: "integer", "x-mcp-header": "Priority" },
    verbose: { type: ["boolean", "null"], "x-mcp-header": "Verbose" },
    empty: { type: "string", "x-mcp-header": "EmptyVal" },
    greeting: { type: "string", "x-mcp-header": "Greeting" },
    query: { type: "string" },
  },
};
const params = (headerParamsOf(schema) as { ok: true; params: Parameters<typeof statelessRequestHeaders>[3] }).params;

describe("statelessRequestHeaders", () => {
  it("names the version, the method and, where the method has one, the name (encoded when not plain)", () => {
    expect(statelessRequestHeaders("2026-07-28", "tools/list", undefined, undefined)).toEqual({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/list",
    });
    expect(statelessRequestHeaders("2026-07-28", "resources/read", { uri: "file:///a%20b.txt" }, undefined)).toEqual({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "resources/read",
      "mcp-name": "file:///a%20b.txt",
    });
    expect(statelessRequestHeaders("2026-07-28", "prompts/get", { name: " padded" }, undefined)["mcp-name"]).toBe(
      "=?base64?IHBhZGRlZA==?=",
    );
  });

  it("mirrors a tool's annotated arguments: encoded as the revision says, empty strings kept, null and absent ones left out", () => {
    const headers = statelessRequestHeaders(
      "2026-07-28",
      "tools/call",
      { name: "t", arguments: { region: "us-west1", priority: 42, verbose: null, empty: "", greeting: "Hello, 世界", query: "SELECT 1" } },
      params,
    );
    expect(headers).toEqual({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "t",
      "mcp-param-Region": "us-west1",
      "mcp-param-Priority": "42",
      "mcp-param-EmptyVal": "",
      "mcp-param-Greeting": "=?base64?SGVsbG8sIOS4lueVjA==?=",
    });
    expect(
      statelessRequestHeaders("2026-07-28", "tools/call", { name: "t", arguments: { verbose: true } }, params)["mcp-param-Verbose"],
    ).toBe("true");
    expect(statelessRequestHeaders("2026-07-28", "tools/call", { name: "t" }, params)).toEqual({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "t",
    });
  });
});
