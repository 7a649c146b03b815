// SDK 2.x as a stdio server child: the echo tool and a `cpu` tool.
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { sdk2Server } from "../impls/sdk2.mjs";

await sdk2Server().connect(new StdioServerTransport());
