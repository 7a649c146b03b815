// What the soaks measure a process by: the heap once collections stop freeing anything, the timers
// alive, and a bounded wait for a condition.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** The used heap once collections stop freeing anything (gc made callable for this process only; bounded rounds). */
export async function heapAfterGc(): Promise<number> {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  let used = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 10; attempt++) {
    // Closed sockets and streams release their memory a few ticks after the collection that finds them.
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc();
    const now = process.memoryUsage().heapUsed;
    if (now >= used - 64 * 1024) return now;
    used = now;
  }
  return used;
}

/** Timers alive in this process now (Node's view of its active resources). */
export function liveTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
}

/** Polls `done` every `everyMs` until it holds, for at most `limitMs`. */
export async function until(done: () => boolean | Promise<boolean>, limitMs = 10_000, everyMs = 10): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`still waiting after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
