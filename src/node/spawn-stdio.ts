import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../error-codes/mcp-error.js";
import { StdioTransport } from "../transport/stdio/stdio.js";
import type { Transport, TransportReceiver } from "../transport/transport/transport.types.js";
import { sourceOf, writableOf } from "./node-streams.js";

export interface SpawnStdioOptions {
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to a minimal inherited environment (PATH, HOME, …), so the host's secrets do not leak to the server. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** What to do with the child's stderr besides keeping its tail: forward it, or hand it to a function. Default: keep only. */
  readonly stderr?: "keep" | "inherit" | ((text: string) => void);
  /** How long close() waits for the child after ending its stdin, and again after SIGTERM (default 2000 ms). */
  readonly closeTimeoutMs?: number;
  readonly maxFrameBytes?: number;
}

export interface ChildExit {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderrTail: string;
}

// What a program needs to run on POSIX and on Windows; a name the platform lacks is simply absent.
const INHERITED_ENV = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
  "LANG",
  "TMPDIR",
  "APPDATA",
  "HOMEDRIVE",
  "HOMEPATH",
  "LOCALAPPDATA",
  "PROCESSOR_ARCHITECTURE",
  "SYSTEMDRIVE",
  "SYSTEMROOT",
  "TEMP",
  "USERNAME",
  "USERPROFILE",
  "PROGRAMFILES",
];
const STDERR_TAIL_CHARS = 8192;

/** Starts an MCP server as a child process and connects to its stdio. */
export async function spawnStdioServer(options: SpawnStdioOptions): Promise<ChildProcessTransport> {
  const transport = new ChildProcessTransport(options);
  await transport.spawned;
  return transport;
}

/**
 * A transport over a child process's stdin/stdout. Its stderr is always drained (a full pipe would
 * block the child) and its tail kept; when the child exits on its own, the transport closes with
 * an error carrying the exit code, signal and stderr tail, so pending requests say why they failed.
 */
export class ChildProcessTransport implements Transport {
  /** Messages alone, whatever their era (stdio). */
  readonly carriesStatelessEra = true;
  readonly spawned: Promise<void>;
  readonly exited: Promise<ChildExit>;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #inner: StdioTransport;
  readonly #closeTimeoutMs: number;
  #stderrTail = "";
  #closing = false;

  constructor(options: SpawnStdioOptions) {
    this.#closeTimeoutMs = options.closeTimeoutMs ?? 2000;
    // Loaded here, not imported: a process that only serves (a server child) never loads it.
    const { spawn } = process.getBuiltinModule("node:child_process");
    this.#child = spawn(options.command, options.args ?? [], {
      cwd: options.cwd,
      env: environment(options.env),
      stdio: "pipe",
      windowsHide: true,
    });
    this.#drainStderr(options.stderr ?? "keep");
    this.spawned = new Promise((resolve, reject) => {
      this.#child.once("spawn", resolve);
      this.#child.once("error", (error) =>
        reject(new MCPError(MCP_CODES.TRANSPORT_ERROR, `Could not start ${options.command}: ${describeThrown(error)}`, { cause: error })),
      );
    });
    // Whoever awaits `spawned` sees the failure; this only keeps an unawaited one from being unhandled.
    this.spawned.catch(() => undefined);
    this.exited = new Promise((resolve) =>
      this.#child.once("close", (exitCode, signal) => resolve({ exitCode, signal, stderrTail: this.#stderrTail })),
    );
    this.#inner = new StdioTransport({
      readable: sourceOf(this.#child.stdout),
      writable: writableOf(this.#child.stdin),
      ...(options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes }),
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** The last few KiB the child wrote to stderr. */
  get stderrTail(): string {
    return this.#stderrTail;
  }

  async start(receiver: TransportReceiver): Promise<void> {
    await this.spawned;
    await this.#inner.start({
      onMessage: (message, context) => receiver.onMessage(message, context),
      onMalformed: (error) => receiver.onMalformed(error),
      onClose: (error) => void this.#reportClose(receiver, error),
    });
  }

  /** A write that fails because the child died says how it died, like the close that follows. */
  send(message: unknown): Promise<void> {
    return this.#inner.send(message).catch(async (error: unknown) => {
      // Only a broken channel closes the stdio transport; a message that cannot be serialised does not.
      const exit = this.#inner.closed ? await this.#exitWithin(this.#closeTimeoutMs) : undefined;
      if (!exit) throw error;
      throw new MCPError(MCP_CODES.TRANSPORT_ERROR, describeExit(exit), { data: exit, cause: error });
    });
  }

  /** Ends the child's stdin, then escalates to SIGTERM and SIGKILL if it does not exit in time. */
  async close(): Promise<void> {
    this.#closing = true;
    await this.#inner.close();
    if (await this.#exitsWithin(this.#closeTimeoutMs)) return;
    this.#child.kill("SIGTERM");
    if (await this.#exitsWithin(this.#closeTimeoutMs)) return;
    this.#child.kill("SIGKILL");
    await this.exited;
  }

  async #reportClose(receiver: TransportReceiver, error: MCPError | undefined): Promise<void> {
    if (this.#closing) return receiver.onClose(error);
    const exit = await this.exited;
    receiver.onClose(new MCPError(MCP_CODES.TRANSPORT_ERROR, describeExit(exit), { data: exit, cause: error }));
  }

  async #exitsWithin(ms: number): Promise<boolean> {
    return (await this.#exitWithin(ms)) !== undefined;
  }

  /** The child's exit, or undefined if it is still running after `ms`. */
  #exitWithin(ms: number): Promise<ChildExit | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), ms);
      void this.exited.then((exit) => {
        clearTimeout(timer);
        resolve(exit);
      });
    });
  }

  #drainStderr(mode: NonNullable<SpawnStdioOptions["stderr"]>): void {
    this.#child.stderr.setEncoding("utf8");
    this.#child.stderr.on("data", (text: string) => {
      this.#stderrTail = (this.#stderrTail + text).slice(-STDERR_TAIL_CHARS);
      if (mode === "inherit") process.stderr.write(text);
      else if (typeof mode === "function") mode(text);
    });
  }
}

function describeExit(exit: ChildExit): string {
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.exitCode}`;
  const stderr = exit.stderrTail.trim();
  return `The server process ${how}${stderr ? `; stderr: ${stderr.slice(-1000)}` : ""}`;
}

function environment(extra: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV) {
    const value = process.env[name];
    // Exported shell functions ("() {…") are never passed on.
    if (value !== undefined && !value.startsWith("()")) env[name] = value;
  }
  return { ...env, ...extra };
}
