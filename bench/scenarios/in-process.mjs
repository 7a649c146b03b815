// In-process round trips over an in-memory link: sequential tools/call of an echo tool, 64 in
// flight, and ping; plus payload scaling of the echo argument.
import { limitInProcess } from "../impls/limit.mjs";
import { oursInProcess, oursServer } from "../impls/ours.mjs";
import { sdk1InProcess } from "../impls/sdk1.mjs";
import { sdk2InProcess } from "../impls/sdk2.mjs";

export const IN_PROCESS = { ours: oursInProcess, sdk1: sdk1InProcess, sdk2: sdk2InProcess, limit: limitInProcess };

/** A client layer that passes every request on unchanged. */
const passThrough = (next) => (request, context) => next(request, context);

/** Our in-process echo with no client layers, and with three that pass every request on (issue 20: what a layer costs per call). */
export const CLIENT_LAYERS = {
  ours: oursInProcess,
  layers3: async () => {
    const connection = await oursInProcess();
    connection.client.use(passThrough).use(passThrough).use(passThrough);
    return connection;
  },
  limit: limitInProcess,
};

/** Our in-process echo with no server layers, and with three that pass every request on: what a server layer costs per call. */
export const SERVER_LAYERS = {
  ours: oursInProcess,
  layers3: () => oursInProcess(oursServer().use(passThrough).use(passThrough).use(passThrough)),
  limit: limitInProcess,
};

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
