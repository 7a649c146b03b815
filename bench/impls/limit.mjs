// The physical limit: the same JSON-RPC messages with only JSON.stringify, JSON.parse and a Map of
// pending ids — no validation, no protocol logic.
export async function limitInProcess() {
  const pending = new Map();
  let nextId = 1;
  const toServer = (text) =>
    queueMicrotask(() => {
      const request = JSON.parse(text);
      const result = request.method === "ping" ? {} : { content: [{ type: "text", text: request.params.arguments.text }] };
      const reply = JSON.stringify({ jsonrpc: "2.0", id: request.id, result });
      queueMicrotask(() => {
        const response = JSON.parse(reply);
        const settle = pending.get(response.id);
        pending.delete(response.id);
        settle(response.result);
      });
    });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      toServer(JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }));
    });
  return {
    call: (args) => request("tools/call", { name: "echo", arguments: args }),
    ping: () => request("ping"),
    pendingHeld: () => pending,
    close: async () => undefined,
  };
}
