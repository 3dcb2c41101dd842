/**
 * Tool schemas travel in every tools/list, so a sizeable sub-schema a tool repeats is written once
 * under `$defs` and referred to with `$ref` (a `$ref` to a small object would be no shorter).
 */

const MIN_SHARED_BYTES = 120;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function shareRepeatedSubschemas(schema: Record<string, unknown>): Record<string, unknown> {
  const root = schema as { [key: string]: Json };
  const defs: Record<string, Json> = {};
  for (;;) {
    const repeat = largestRepeat(root);
    if (!repeat) break;
    const name = uniqueName(repeat.name, defs);
    defs[name] = JSON.parse(repeat.json) as Json;
    replaceAll(root, repeat.json, { $ref: `#/$defs/${name}` });
  }
  return Object.keys(defs).length ? { ...root, $defs: defs } : root;
}

interface Repeat {
  json: string;
  name: string;
}

/** The biggest object sub-schema (not the root) that occurs at least twice. */
function largestRepeat(root: { [key: string]: Json }): Repeat | undefined {
  const seen = new Map<string, { count: number; name: string }>();
  const visit = (node: Json, name: string, isRoot: boolean) => {
    if (Array.isArray(node)) {
      node.forEach((child) => visit(child, name, false));
      return;
    }
    if (node === null || typeof node !== 'object') return;
    if (!isRoot) {
      const json = JSON.stringify(node);
      if (json.length >= MIN_SHARED_BYTES) {
        const entry = seen.get(json);
        if (entry) entry.count++;
        else seen.set(json, { count: 1, name });
      }
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'properties' && child && typeof child === 'object' && !Array.isArray(child)) {
        for (const [prop, sub] of Object.entries(child)) visit(sub, prop, false);
      } else visit(child, key === 'items' ? `${name}_item` : name, false);
    }
  };
  visit(root, 'schema', true);
  let best: Repeat | undefined;
  for (const [json, { count, name }] of seen) {
    if (count >= 2 && (!best || json.length > best.json.length)) best = { json, name };
  }
  return best;
}

function replaceAll(node: Json, json: string, ref: Json): void {
  if (Array.isArray(node)) {
    node.forEach((child, i) => {
      if (child && typeof child === 'object' && JSON.stringify(child) === json) node[i] = ref;
      else replaceAll(child, json, ref);
    });
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, child] of Object.entries(node)) {
    if (child && typeof child === 'object' && JSON.stringify(child) === json) node[key] = ref;
    else replaceAll(child, json, ref);
  }
}

function uniqueName(base: string, taken: Record<string, Json>): string {
  const clean = base.replace(/[^A-Za-z0-9_]/g, '_') || 'shared';
  let name = clean;
  for (let i = 2; name in taken; i++) name = `${clean}_${i}`;
  return name;
}
