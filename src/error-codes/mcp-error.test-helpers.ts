// What a call rejected with, for tests: an MCPError with the code they expect.
import { expect } from "vitest";
import { MCPError } from "./mcp-error.js";

/** The MCPError `promise` rejects with, checked to carry `code` (the test fails if it resolves or rejects otherwise). */
export async function rejectedWith(promise: Promise<unknown>, code: string): Promise<MCPError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(MCPError);
  expect((error as MCPError).code).toBe(code);
  return error as MCPError;
}
