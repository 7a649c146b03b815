// In-process round trips over an in-memory link: sequential tools/call of an echo tool, 64 in
// flight, and ping; plus payload scaling of the echo argument.
import { limitInProcess } from "../impls/limit.mjs";
import { oursInProcess } from "../impls/ours.mjs";
import { sdk1InProcess } from "../impls/sdk1.mjs";
import { sdk2InProcess } from "../impls/sdk2.mjs";

export const IN_PROCESS = { ours: oursInProcess, sdk1: sdk1InProcess, sdk2: sdk2InProcess, limit: limitInProcess };

export async function sequentialCalls(connection, count, args) {
  for (let i = 0; i < count; i++) await connection.call(args);
}

export async function concurrentCalls(connection, count, inFlight, args) {
  for (let done = 0; done < count; done += inFlight) {
    await Promise.all(Array.from({ length: Math.min(inFlight, count - done) }, () => connection.call(args)));
  }
}

export async function sequentialPings(connection, count) {
  for (let i = 0; i < count; i++) await connection.ping();
}
