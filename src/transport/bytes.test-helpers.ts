/** Splits `bytes` at the given cut points (any number, any positions, empty chunks included), as a stream may deliver them. */
export function chunked(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].toSorted((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let previous = 0;
  for (const point of points) {
    chunks.push(bytes.slice(previous, point));
    previous = point;
  }
  chunks.push(bytes.slice(previous));
  return chunks;
}
