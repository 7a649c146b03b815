// The limit as a stdio child: newline-delimited JSON in, the same JSON-RPC answers out; no
// validation, no protocol logic beyond what the messages need. Linear buffering.
import { limitAnswer } from "../impls/limit.mjs";

let partial = [];
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  let start = 0;
  let newline = chunk.indexOf("\n");
  let out = "";
  while (newline !== -1) {
    const piece = chunk.slice(start, newline);
    const line = partial.length === 0 ? piece : partial.join("") + piece;
    partial = [];
    const message = JSON.parse(line);
    if (message.id !== undefined) out += `${JSON.stringify({ jsonrpc: "2.0", id: message.id, result: limitAnswer(message) })}\n`;
    start = newline + 1;
    newline = chunk.indexOf("\n", start);
  }
  if (start < chunk.length) partial.push(chunk.slice(start));
  if (out) process.stdout.write(out);
});
