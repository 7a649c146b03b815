// Ours as a stdio server child: the echo tool and a `cpu` tool that reports this process's CPU time.
import { serveStdio } from "@suaveplan/mcp/node";
import { oursServer } from "../impls/ours-server.mjs";

await serveStdio(oursServer());
