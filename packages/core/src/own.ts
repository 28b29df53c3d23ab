/**
 * A look-up by a key that came from outside (a client's field, a page, a model's answer) in a plain
 * object: only the object's own entries count, so "constructor", "__proto__" or "toString" find
 * nothing instead of Object.prototype's members (which once answered 500 for proxy_country "constructor").
 */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
