// SDK 2.x as a stdio server child through `serveStdio`, its entry that serves 2026-07-28 openings
// (and pins the connection to one instance from the factory): the echo tool and a `cpu` tool.
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { sdk2Server } from "../impls/sdk2.mjs";

serveStdio(() => sdk2Server());
