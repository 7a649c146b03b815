/**
 * Every index where a non-empty `pattern` starts in `text`, overlaps included. Knuth-Morris-Pratt,
 * so O(text + pattern) even for a hostile text full of near-misses.
 */
export function findOccurrences(text: string, pattern: string): number[] {
  // failure[i]: the length of the longest proper prefix of pattern[0..i] that is also its suffix.
  const failure = [0];
  const starts: number[] = [];
  const advance = (matched: number, char: string): number => {
    while (matched > 0 && char !== pattern[matched]) matched = failure[matched - 1] as number;
    return char === pattern[matched] ? matched + 1 : matched;
  };
  for (let index = 1, matched = 0; index < pattern.length; index++) failure[index] = matched = advance(matched, pattern[index] as string);
  for (let index = 0, matched = 0; index < text.length; index++) {
    matched = advance(matched, text[index] as string);
    if (matched === pattern.length) {
      starts.push(index + 1 - matched);
      matched = failure[matched - 1] as number;
    }
  }
  return starts;
}
