/** A set of positions 0..size-1 in a URI, one bit each (a matcher keeps one per expression). */
export class PositionSet {
  readonly #words: Uint32Array;

  constructor(size: number) {
    this.#words = new Uint32Array((size >>> 5) + 1);
  }

  add(position: number): void {
    const index = position >>> 5;
    this.#words[index] = (this.#words[index] as number) | (1 << (position & 31));
  }

  has(position: number): boolean {
    return (((this.#words[position >>> 5] as number) >>> (position & 31)) & 1) === 1;
  }
}
