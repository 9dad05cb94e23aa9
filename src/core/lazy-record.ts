/**
 * A record whose value for each key is made on its first read and kept: reading one language's words makes that
 * language's alone. A new isolate reads one or two languages of the eight, so the rest are never made in it
 * (docs/performance.md, "The cold start"). Enumerating the record (`Object.entries`) makes every value, as a plain
 * record would hold them.
 */
export function lazyRecord<K extends string, V>(keys: readonly K[], make: (key: K) => V): Readonly<Record<K, V>> {
  const record = {} as Record<K, V>;
  for (const key of keys)
    Object.defineProperty(record, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = make(key);
        Object.defineProperty(record, key, { value, enumerable: true, writable: false, configurable: false });
        return value;
      },
    });
  return record;
}
