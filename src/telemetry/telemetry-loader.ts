import { onDemand } from "../lazy/on-demand.js";
import { OPENTELEMETRY_GLOBAL } from "./global-api.js";
import type { Telemetry } from "./telemetry.js";

const glue = /* @__PURE__ */ onDemand(() => import("./telemetry.js"));

/** Whether anything in this process registered with the OpenTelemetry API (an SDK, a propagator, a context manager). */
export function openTelemetryInUse(): boolean {
  return OPENTELEMETRY_GLOBAL in globalThis;
}

/**
 * The telemetry of a dispatcher given none, decided when it connects: the shared default on the
 * global API when OpenTelemetry is in use in this process; otherwise none, and the glue is not even
 * loaded (without an SDK every span and metric would be a no-op). An SDK registered after a
 * connection is seen by the connections made after it.
 */
export async function connectionTelemetry(): Promise<Telemetry | undefined> {
  return openTelemetryInUse() ? (await glue.load()).defaultTelemetry() : undefined;
}
