/** Joins the pieces of one frame, once, into a single array (no copy when there is only one). */
export function joinBytes(pieces: readonly Uint8Array[], total: number): Uint8Array {
  if (pieces.length === 1) return pieces[0] as Uint8Array;
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const piece of pieces) {
    joined.set(piece, offset);
    offset += piece.length;
  }
  return joined;
}
