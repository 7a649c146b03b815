// Zod's JSON Schema converter, for tool schemas that carry none of their own (zod/mini ones). Only a
// server needs it: MCPServer.start loads it beside the wire layer, so client bundles leave it out.
export { toJSONSchema } from "zod/v4/core";
