import { MCP_CODES } from "../../../error-codes/error-codes.js";
import { MCPError } from "../../../error-codes/mcp-error.js";
import { randomHex } from "../../../protocol/bytes-text.js";
import type { SessionDirectory } from "../../../stores/session-directory.js";

export interface LeaseSettings {
  readonly directory: SessionDirectory;
  readonly instance: string;
  readonly leaseMs: number;
  /**
   * The lease is held again after it lapsed (by the clock, or in the directory — which a Redis restart also does): what this instance
   * serves must be checked against the directory.
   */
  readonly onRegained: () => void;
  /** Another process holds this instance's name: nothing here is this instance's any more. */
  readonly onLost: () => void;
  /** After each renewal: what else should be kept alive with it. */
  readonly onRenewed: () => void;
}

/**
 * This instance's lease in the directory, renewed three times per `leaseMs` while the handler runs.
 * By its own clock it knows when it last held the lease for sure (the time it asked, not the time
 * the answer came): past `leaseMs` from then it is not `fresh`, and takes no session over until it
 * renews. It goes on serving the sessions it has (when the directory is down, nobody can take them
 * over); once it holds the lease again it checks them (`onRegained`).
 */
export class InstanceLease {
  readonly #token = randomHex(16);
  #heldSince = -Infinity;
  #held = false;
  /** The lease lapsed since it was last checked against the directory. */
  #lapsed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(private readonly settings: LeaseSettings) {}

  /** Whether the lease surely still holds by this process's clock. */
  get fresh(): boolean {
    return this.#held && Date.now() - this.#heldSince < this.settings.leaseMs;
  }

  /**
   * Takes the lease. A process restarted under its old name waits for the old lease to run out;
   * refused when another process keeps holding the name past twice the lease.
   */
  async start(): Promise<void> {
    const { directory, instance, leaseMs } = this.settings;
    let asked = Date.now();
    for (const started = asked; (await directory.renewLease(instance, this.#token, leaseMs)) === "conflict"; asked = Date.now()) {
      if (asked - started > 2 * leaseMs)
        throw new MCPError(
          MCP_CODES.INVALID_PARAMS,
          `Another process holds the lease of instance "${instance}": each process needs a name of its own`,
        );
      await new Promise<void>((resolve) => setTimeout(resolve, leaseMs / 3));
    }
    this.#heldSince = asked;
    this.#held = true;
    // Stopped while it waited: the lease just taken is let go, not kept alive by renewals.
    if (this.#stopped) await this.stop();
    else this.#schedule();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    if (this.#held) await this.settings.directory.releaseLease(this.settings.instance, this.#token).catch(() => undefined);
    this.#held = false;
  }

  #schedule(): void {
    this.#timer = setTimeout(() => void this.#renew(), this.settings.leaseMs / 3);
  }

  async #renew(): Promise<void> {
    const { directory, instance, leaseMs } = this.settings;
    const asked = Date.now();
    const renewal = await directory.renewLease(instance, this.#token, leaseMs).catch(() => undefined);
    if (this.#stopped) return;
    // "acquired" while it was held: the key was gone (it ran out, or Redis lost it).
    if (!this.fresh || renewal === "acquired") this.#lapsed = true;
    if (renewal === "conflict") {
      this.#held = false;
      this.settings.onLost();
    } else if (renewal !== undefined) {
      this.#heldSince = asked;
      this.#held = true;
      if (this.#lapsed) {
        this.#lapsed = false;
        this.settings.onRegained();
      }
      this.settings.onRenewed();
    }
    this.#schedule();
  }
}
