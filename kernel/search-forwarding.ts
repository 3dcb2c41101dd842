/**
 * The one way the kernel wraps a search index (the capability gate, the outbox's settled view):
 * every member the wrapper does not override reaches the index itself, bound to it — members
 * SearchIndex gains later included — so no wrapper drops a member by not listing it.
 */
import type { SearchIndex } from './search-index.js';

/**
 * `index` with `overrides` in place of its own members. Give an override of an optional member
 * only where the index has it (`...(index.sql ? { sql } : {})`): the wrapper then has exactly
 * the members the index has.
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
