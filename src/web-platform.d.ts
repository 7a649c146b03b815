// The web-standard globals the universal entry relies on: the part of the WinterTC minimum common
// API that Node, Bun, Deno, browsers and edge workers all provide. Only tsconfig.core.json sees this
// file, so anything outside this list (Buffer, process, DOM) fails the core build. Tests and the
// Node entry get the same names from @types/node instead.

interface AbortSignalEventMap {
  abort: unknown;
}

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

declare var AbortSignal: {
  prototype: AbortSignal;
  abort(reason?: unknown): AbortSignal;
  any(signals: AbortSignal[]): AbortSignal;
};

interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

declare var AbortController: {
  prototype: AbortController;
  new (): AbortController;
};

type TimerHandle = ReturnType<typeof setTimeout>;
declare function setTimeout(callback: () => void, ms?: number): { readonly __timer: unique symbol };
declare function clearTimeout(handle: TimerHandle | undefined): void;
declare function queueMicrotask(callback: () => void): void;

interface Performance {
  now(): number;
}
declare var performance: Performance;

interface Crypto {
  getRandomValues<T extends Uint8Array>(array: T): T;
  randomUUID(): string;
}
declare var crypto: Crypto;

interface TextEncoder {
  encode(input?: string): Uint8Array;
}
declare var TextEncoder: {
  prototype: TextEncoder;
  new (): TextEncoder;
};

interface TextDecoder {
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
declare var TextDecoder: {
  prototype: TextDecoder;
  new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder;
};
