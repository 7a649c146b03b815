/** For each prefix of the pattern, the length of its longest proper prefix that is also a suffix. */
function failureTable(pattern: string): readonly number[] {
  const table = [0];
  let length = 0;
  for (let index = 1; index < pattern.length; index++) {
    while (length > 0 && pattern.charCodeAt(index) !== pattern.charCodeAt(length)) {
      length = table[length - 1] as number;
    }
    if (pattern.charCodeAt(index) === pattern.charCodeAt(length)) length += 1;
    table.push(length);
  }
  return table;
}

/**
 * Every index where a non-empty `pattern` starts in `text`, overlaps included. Knuth-Morris-Pratt,
 * so O(text + pattern) even for a hostile text full of near-misses.
 */
export function findOccurrences(text: string, pattern: string): readonly number[] {
  const table = failureTable(pattern);
  const starts: number[] = [];
  let matched = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    while (matched > 0 && code !== pattern.charCodeAt(matched)) matched = table[matched - 1] as number;
    if (code === pattern.charCodeAt(matched)) matched += 1;
    if (matched === pattern.length) {
      starts.push(index + 1 - matched);
      matched = table[matched - 1] as number;
    }
  }
  return starts;
}
