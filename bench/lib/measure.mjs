// Timing primitives: wall and CPU time of one run, interleaved repetitions, medians of ratios.
import { performance } from "node:perf_hooks";

/** Runs `fn` once and returns its wall and CPU (user + system) milliseconds. */
export async function timed(fn) {
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  await fn();
  const wallMs = performance.now() - wallBefore;
  const cpu = process.cpuUsage(cpuBefore);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

export function median(values) {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Runs every contender once per repetition, in a rotating order so none always goes first, and
 * returns per contender the per-repetition times. The machine is shared: only ratios measured in
 * the same repetition are compared.
 */
export async function interleave(contenders, repetitions, runOnce) {
  const names = Object.keys(contenders);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let rep = 0; rep < repetitions; rep++) {
    const order = names.map((_, i) => names[(i + rep) % names.length]);
    for (const name of order) samples[name].push(await runOnce(name, contenders[name]));
  }
  return samples;
}

/** Median over repetitions of ours/other, for wall and CPU time. */
export function ratios(samples, ours, other) {
  const a = samples[ours];
  const b = samples[other];
  return {
    wall: median(a.map((sample, i) => sample.wallMs / b[i].wallMs)),
    cpu: median(a.map((sample, i) => sample.cpuMs / b[i].cpuMs)),
  };
}

export function forceGc() {
  if (typeof globalThis.gc !== "function") throw new Error("run with --expose-gc");
  globalThis.gc();
  globalThis.gc();
}
