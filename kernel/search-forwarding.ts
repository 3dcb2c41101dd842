import type { SearchIndex } from './search-index.js';

/**
 * `index` with `overrides` in place of its own members; every other member, ones SearchIndex
 * gains later included, reaches the index bound to it, so no wrapper drops one by not listing it.
 * Override an optional member only where the index has it (`...(index.sql ? { sql } : {})`).
 */
export function forwardingSearchIndex(index: SearchIndex, overrides: Partial<SearchIndex>): SearchIndex {
  const replaced = (member: string | symbol) => Object.hasOwn(overrides, member);
  return new Proxy(index, {
    get(target, member) {
      if (replaced(member)) return overrides[member as keyof SearchIndex];
      const value: unknown = Reflect.get(target, member, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    has: (target, member) => replaced(member) || Reflect.has(target, member),
  });
}
