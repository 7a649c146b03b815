// Zod's JSON Schema converter, for tool schemas that carry none of their own (zod/mini ones). Only a
// server with such a tool needs it: MCPServer loads it then, so other servers and every client leave it out.
export { toJSONSchema } from "zod/v4/core";
