/**
 * What a successful write reports back beside its result: the write hooks' warnings (fields the
 * type's schema does not define, a schema with faults of its own; plugins/schema/hook.ts).
 */

/** `{ warnings }` when there are any, else nothing: answers stay in the seed's shape when all is well. */
export function withWarnings(warnings: readonly string[]): { warnings?: string[] } {
  return warnings.length ? { warnings: [...warnings] } : {};
}
