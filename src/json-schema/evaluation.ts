/**
 * Which properties and items of one value a schema has evaluated: the annotations that
 * `unevaluatedProperties` and `unevaluatedItems` read. Runs of a schema without those keywords
 * record nothing (`IGNORED_EVALUATION`), so they pay nothing for them.
 */
export interface EvaluationSink {
  addProperty(key: string): void;
  addItem(index: number): void;
  addAllItems(): void;
  /** Hands this evaluation's annotations to the enclosing schema's, once this subschema passed. */
  copyTo(target: EvaluationSink): void;
}

export const IGNORED_EVALUATION: EvaluationSink = {
  addProperty: () => undefined,
  addItem: () => undefined,
  addAllItems: () => undefined,
  copyTo: () => undefined,
};

export class TrackedEvaluation implements EvaluationSink {
  readonly #properties = new Set<string>();
  readonly #items = new Set<number>();
  #allItems = false;

  addProperty(key: string): void {
    this.#properties.add(key);
  }

  addItem(index: number): void {
    this.#items.add(index);
  }

  addAllItems(): void {
    this.#allItems = true;
  }

  copyTo(target: EvaluationSink): void {
    for (const key of this.#properties) target.addProperty(key);
    for (const index of this.#items) target.addItem(index);
    if (this.#allItems) target.addAllItems();
  }

  hasProperty(key: string): boolean {
    return this.#properties.has(key);
  }

  hasItem(index: number): boolean {
    return this.#allItems || this.#items.has(index);
  }
}
