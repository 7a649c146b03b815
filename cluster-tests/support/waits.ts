// Bounded waits and small readers the cluster suite's files share: a condition that does not come
// fails the test with what it was waiting for, never hangs it.
import type { MCPClient } from "../../src/index.js";

export async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > timeoutMs) throw new Error(`still not ${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 5_000): Promise<T> {
  for (let waited = 0; ; waited += 20) {
    const value = await read();
    if (done(value)) return value;
    if (waited > timeoutMs) throw new Error(`still not ${what} after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const textOf = (result: { content: unknown[] }, index = 0): string => (result.content[index] as { text: string }).text;

/** Which instance answers each of `count` calls in a row. */
export async function whoami(client: MCPClient, count: number): Promise<string[]> {
  const tags: string[] = [];
  for (let index = 0; index < count; index++) tags.push(textOf(await client.callTool("whoami", {})));
  return tags;
}
