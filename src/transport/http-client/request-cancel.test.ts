import { describe, expect, it } from "vitest";
import type { FetchInit, FetchLike, FetchResponse } from "./http-options.js";
import { RequestCancel, TAKES_CANCEL_SIGNALS, signalFor } from "./request-cancel.js";

const neverAnswers: FetchLike = () => new Promise<FetchResponse>(() => undefined);

describe("RequestCancel", () => {
  it("aborts once: every listener runs once, in the order added, and the first reason stays", () => {
    const cancel = new RequestCancel();
    const heard: string[] = [];
    cancel.addEventListener("abort", () => heard.push("first"));
    cancel.addEventListener("abort", () => heard.push(`second, aborted=${String(cancel.aborted)}`));
    expect(cancel.aborted).toBe(false);
    expect(() => cancel.throwIfAborted()).not.toThrow();
    const reason = new Error("given up");
    cancel.abort(reason);
    cancel.abort(new Error("again"));
    expect(heard).toEqual(["first", "second, aborted=true"]);
    expect(cancel.reason).toBe(reason);
    expect(() => cancel.throwIfAborted()).toThrow(reason);
  });

  it("aborts with an AbortError when given no reason, as AbortController does", () => {
    const cancel = new RequestCancel();
    const controller = new AbortController();
    cancel.abort();
    controller.abort();
    expect(cancel.reason).toBeInstanceOf(DOMException);
    expect(cancel.reason).toMatchObject({ name: "AbortError", message: (controller.signal.reason as DOMException).message });
  });

  it("drops a removed listener, ignores removing one it never had, and never runs one added after the abort", () => {
    const cancel = new RequestCancel();
    const heard: string[] = [];
    const removed = (): void => void heard.push("removed");
    const neverAdded = (): void => void heard.push("never added");
    cancel.addEventListener("abort", removed);
    cancel.addEventListener("abort", () => heard.push("kept"));
    cancel.removeEventListener("abort", removed);
    cancel.removeEventListener("abort", neverAdded);
    cancel.abort();
    cancel.addEventListener("abort", () => heard.push("late"));
    expect(heard).toEqual(["kept"]);
  });
});

describe("signalFor", () => {
  it("hands a fetch marked TAKES_CANCEL_SIGNALS the cancel itself", () => {
    const cancel = new RequestCancel();
    const marked = Object.assign((url: string, init: FetchInit) => neverAnswers(url, init), { [TAKES_CANCEL_SIGNALS]: true as const });
    expect(signalFor(marked, cancel)).toBe(cancel);
  });

  it("hands any other fetch an AbortSignal that aborts with the cancel, with its reason", () => {
    const cancel = new RequestCancel();
    const signal = signalFor(neverAnswers, cancel);
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal.aborted).toBe(false);
    const reason = new Error("closed");
    cancel.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
  });

  it("hands a cancel already aborted over as an aborted AbortSignal", () => {
    const cancel = new RequestCancel();
    cancel.abort();
    const signal = signalFor(neverAnswers, cancel);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(cancel.reason);
  });

  it("passes an AbortSignal through as it is, to either kind of fetch", () => {
    const { signal } = new AbortController();
    const marked = Object.assign((url: string, init: FetchInit) => neverAnswers(url, init), { [TAKES_CANCEL_SIGNALS]: true as const });
    expect(signalFor(neverAnswers, signal)).toBe(signal);
    expect(signalFor(marked, signal)).toBe(signal);
  });
});
