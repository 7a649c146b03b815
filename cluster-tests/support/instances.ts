// The server processes of the cluster suite: `node cluster-tests/fixtures/cluster-server.mjs` once
// per instance (tags i1, i2, …), each told its Redis socket, key prefix and tag by environment, each
// ready once it printed its one JSON line. Every child is stopped by its PID (`stopAll`, in
// afterAll); one whose parent dies stops by itself (its stdin ends), and any left at this process's
// exit are killed. Only node:* imports: the throughput bench loads this file stripped of its types.
import { spawn, type ChildProcess } from "node:child_process";

export interface Instance {
  readonly tag: string;
  /** Its endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly pid: number;
}

export interface InstancesOptions {
  /** The redis-server's unix socket; absent with `env: { STORES: "memory" }`. */
  readonly redisSocket?: string;
  readonly prefix: string;
  /** More environment for every child (CLUSTER, LEASE_MS, HANDLER_OPTIONS, …), over this process's. */
  readonly env?: Readonly<Record<string, string>>;
  /** The fixture to run (default: cluster-tests/fixtures/cluster-server.mjs beside this file's folder). */
  readonly script?: string;
  /** The longest a child may take to print its line (default 15 s). */
  readonly startTimeoutMs?: number;
  /** Node's own flags for the children (e.g. `--cpu-prof`). */
  readonly execArgv?: readonly string[];
}

export interface Instances {
  /** The running instances by index; `start(i)` replaces entry i. */
  readonly instances: readonly Instance[];
  /** Signals instance i's process (SIGKILL: a crash) and resolves once it exited. */
  kill(index: number, signal?: NodeJS.Signals): Promise<void>;
  /** Starts instance i again (its tag, a new port); its previous process must have exited. */
  start(index: number): Promise<Instance>;
  /** What each child wrote on stderr (the last 64 KiB), for a failing test's message. */
  stderr(index: number): string;
  /** Stops every child by its PID: SIGTERM, then SIGKILL after 5 s; resolves once all exited. */
  stopAll(): Promise<void>;
}

const STDERR_KEPT = 64 * 1024;
const STOP_WAIT_MS = 5_000;

interface Running {
  instance: Instance;
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  stderr: string;
}

const everyChild = new Set<ChildProcess>();
let exitHookSet = false;

/** Kills what is still running when this process exits, whatever made it exit (a failed test, a crash). */
function killAtExit(child: ChildProcess): void {
  everyChild.add(child);
  child.once("exit", () => everyChild.delete(child));
  if (exitHookSet) return;
  exitHookSet = true;
  process.once("exit", () => {
    for (const left of everyChild) left.kill("SIGKILL");
  });
}

function defaultScript(): string {
  return new URL("../fixtures/cluster-server.mjs", import.meta.url).pathname;
}

/** Spawns one child and waits for its line; a child that exits first, or is silent too long, fails with its stderr. */
async function spawnInstance(tag: string, options: InstancesOptions): Promise<Running> {
  const env: Record<string, string | undefined> = { ...process.env, PREFIX: options.prefix, INSTANCE: tag, ...options.env };
  if (options.redisSocket !== undefined) env["REDIS_SOCKET"] = options.redisSocket;
  const child = spawn(process.execPath, [...(options.execArgv ?? []), options.script ?? defaultScript()], {
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  killAtExit(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const running: Running = { child, exited, stderr: "", instance: { tag, url: "", pid: child.pid ?? -1 } };
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    running.stderr = (running.stderr + text).slice(-STDERR_KEPT);
  });
  const timeoutMs = options.startTimeoutMs ?? 15_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (text: string) => {
        out += text;
        if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
      });
      child.once("exit", (code, signal) =>
        reject(new Error(`instance ${tag} exited (${code ?? signal}) before it listened:\n${running.stderr}`)),
      );
      child.once("error", reject);
      timer = setTimeout(() => reject(new Error(`instance ${tag} printed no line within ${timeoutMs} ms:\n${running.stderr}`)), timeoutMs);
    });
    const { port } = JSON.parse(line) as { port: number };
    running.instance = { tag, url: `http://127.0.0.1:${port}/mcp`, pid: child.pid as number };
    return running;
  } catch (error) {
    await stop(child, exited, "SIGKILL");
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Signals the child and waits for its exit; SIGKILL if it is still there after 5 s. */
async function stop(child: ChildProcess, exited: Promise<void>, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(child.pid, signal);
  } catch {
    // It exited between the check and the signal: its exit event is on its way.
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), STOP_WAIT_MS)));
  if ((await Promise.race([exited, late])) === "late") {
    child.kill("SIGKILL");
    await exited;
  }
  clearTimeout(timer);
}

export async function startInstances(count: number, options: InstancesOptions): Promise<Instances> {
  const running: (Running | undefined)[] = [];
  const tags = Array.from({ length: count }, (_, index) => `i${index + 1}`);
  const stopAll = async (): Promise<void> => {
    await Promise.all(running.flatMap((one) => (one === undefined ? [] : [stop(one.child, one.exited, "SIGTERM")])));
  };
  const started = await Promise.allSettled(tags.map((tag) => spawnInstance(tag, options)));
  for (const outcome of started) running.push(outcome.status === "fulfilled" ? outcome.value : undefined);
  const failed = started.find((outcome) => outcome.status === "rejected");
  if (failed !== undefined) {
    await stopAll();
    throw failed.reason;
  }
  const at = (index: number): Running => {
    const one = running[index];
    if (one === undefined) throw new Error(`no instance ${index} (there are ${count})`);
    return one;
  };
  return {
    get instances() {
      return running.map((one, index) => one?.instance ?? { tag: tags[index] as string, url: "", pid: -1 });
    },
    kill: (index, signal = "SIGKILL") => stop(at(index).child, at(index).exited, signal),
    async start(index) {
      const previous = at(index);
      if (previous.child.exitCode === null && previous.child.signalCode === null)
        throw new Error(`instance ${previous.instance.tag} is still running (pid ${previous.instance.pid})`);
      const next = await spawnInstance(previous.instance.tag, options);
      running[index] = next;
      return next.instance;
    },
    stderr: (index) => at(index).stderr,
    stopAll,
  };
}
