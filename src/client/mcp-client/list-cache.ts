/**
 * One listing, loaded on first use and shared until `invalidate`. A failed load is forgotten so
 * the next `get` tries again; a load that an `invalidate` overtook is not kept.
 */
export class ListCache<T> {
  readonly #load: () => Promise<T[]>;
  #current: Promise<T[]> | undefined;

  constructor(load: () => Promise<T[]>) {
    this.#load = load;
  }

  get(): Promise<T[]> {
    if (this.#current) return this.#current;
    const loading = this.#load();
    this.#current = loading;
    loading.catch(() => {
      if (this.#current === loading) this.#current = undefined;
    });
    return loading;
  }

  invalidate(): void {
    this.#current = undefined;
  }
}
