// The benchmark's view of an official SDK client (1.x and 2.x have the same Client surface).
export function sdkConnection(client, extra = {}) {
  return {
    call: (args) => client.callTool({ name: "echo", arguments: args }),
    ping: () => client.ping(),
    cpu: async () => Number((await client.callTool({ name: "cpu", arguments: {} })).content[0].text),
    ...extra,
    close: async () => {
      await client.close();
      await extra.close?.();
    },
  };
}
