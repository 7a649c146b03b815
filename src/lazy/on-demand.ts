/** A module imported once, when first asked for; `current` gives it once it is there. */
export interface OnDemand<M> {
  readonly load: () => Promise<M>;
  readonly current: () => M | undefined;
}

/** Wraps a dynamic `import()`: the module loads on the first `load()`, and every later call shares it. */
export function onDemand<M>(importModule: () => Promise<M>): OnDemand<M> {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  return {
    load: () => (loading ??= importModule().then((module) => (loaded = module))),
    current: () => loaded,
  };
}
