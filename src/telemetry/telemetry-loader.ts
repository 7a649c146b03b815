import { onDemand } from "../lazy/on-demand.js";
import type { Telemetry } from "./telemetry.js";

// Where version 1 of @opentelemetry/api keeps what is registered with it (providers, propagator,
// context manager); the API creates it with the first registration of anything.
const OPENTELEMETRY_GLOBAL = Symbol.for("opentelemetry.js.api.1");

const glue = /* @__PURE__ */ onDemand(() => import("./telemetry.js"));

/** Whether anything in this process registered with the OpenTelemetry API (an SDK, a propagator, a context manager). */
export function openTelemetryInUse(): boolean {
  return OPENTELEMETRY_GLOBAL in globalThis;
}

/**
 * The telemetry of a dispatcher given none, decided when it connects: the shared default on the
 * global API when OpenTelemetry is in use in this process; otherwise none, and the API is not even
 * loaded (without an SDK every span and metric would be a no-op). An SDK registered after a
 * connection is seen by the connections made after it.
 */
export async function connectionTelemetry(): Promise<Telemetry | undefined> {
  return openTelemetryInUse() ? (await glue.load()).defaultTelemetry() : undefined;
}
