import { describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { Registry } from "./registry.js";

type Config = { title?: string };
type Handler = () => string;

const handler = () => "original";

function registry() {
  const changed = vi.fn();
  return { changed, widgets: new Registry<Config, Handler>("widget", changed) };
}

describe("Registry", () => {
  it("refuses a second entry under a key, naming its kind and the key", () => {
    const { widgets } = registry();
    widgets.add("a", {}, () => "a");
    expect(() => widgets.add("a", {}, () => "again")).toThrow(
      expect.objectContaining({ code: MCP_CODES.DUPLICATE_REGISTRATION, message: 'A widget named "a" is already registered' }),
    );
  });

  it("keeps the handler when an update changes only the configuration", () => {
    const { widgets, changed } = registry();
    const handle = widgets.add("a", { title: "old" }, handler);
    handle.update({ title: "new" });
    expect(widgets.get("a")).toEqual({ key: "a", config: { title: "new" }, handler, enabled: true });
    expect(changed).toHaveBeenCalledTimes(2);
  });

  it("ignores enable and disable on a removed entry's handle, also once its key is taken again", () => {
    const { widgets, changed } = registry();
    const handle = widgets.add("a", {}, () => "first");
    handle.remove();
    expect(changed).toHaveBeenCalledTimes(2);
    handle.disable();
    expect(handle.enabled).toBe(true);
    widgets.add("a", {}, () => "second");
    handle.disable();
    expect(handle.enabled).toBe(true);
    expect(widgets.get("a")?.handler()).toBe("second");
    expect(changed).toHaveBeenCalledTimes(3);
  });

  it("does not remove the entry that took a removed entry's key", () => {
    const { widgets, changed } = registry();
    const first = widgets.add("a", {}, () => "first");
    first.remove();
    const second = widgets.add("a", { title: "second" }, () => "second");
    first.remove();
    expect(widgets.get("a")?.config).toEqual({ title: "second" });
    expect(widgets.enabled().map((entry) => entry.handler())).toEqual(["second"]);
    expect(changed).toHaveBeenCalledTimes(3);
    second.remove();
    expect(widgets.size).toBe(0);
  });
});
