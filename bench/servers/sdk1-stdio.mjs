// SDK 1.x as a stdio server child: the echo tool and a `cpu` tool.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { sdk1Server } from "../impls/sdk1.mjs";

await sdk1Server().connect(new StdioServerTransport());
