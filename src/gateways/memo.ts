/**
 * A memo of a pure function of a string, for values that repeat across requests (a gateway's few LAN
 * addresses, the operating systems' connectivity-check URLs): at most `max` kept, all dropped when
 * full (a flood of distinct values costs one clear per `max`, never growth).
 */
export function memoize<T>(fn: (key: string) => T, max = 1_000): (key: string) => T {
  const memo = new Map<string, T>();
  return (key) => {
    let value = memo.get(key);
    if (value === undefined) {
      value = fn(key);
      if (memo.size >= max) memo.clear();
      memo.set(key, value);
    }
    return value;
  };
}
