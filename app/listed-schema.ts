/**
 * Tool schemas as tools/list shows them (KernelExtras.listSchema, passed by the package's
 * createKernel): decision 017's compaction, which every listing carries.
 */
import { z } from 'zod';
import { NAME_LIMITS } from '../kernel/name-limits.js';
import { shareRepeatedSubschemas } from './json-schema-sharing.js';

/**
 * A schema as tools/list shows it. Every listing carries it, so what says nothing is left out
 * (decision 017): JSON Schema's own defaults, zod's safe-integer bounds, `minLength: 1` (an empty
 * name is never meant, and the refusal names the field) and the bounds of names and paths
 * (name-limits.ts); sizeable repeats are shared under `$defs`.
 */
export function listedJsonSchema(zodSchema: z.ZodType): Record<string, unknown> {
  const schema = z.toJSONSchema(zodSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  const prune = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(prune);
    if (!node || typeof node !== 'object') return;
    const object = node as Record<string, unknown>;
    if (object.minLength === 1) delete object.minLength;
    if (typeof object.maxLength === 'number' && NAME_LIMITS.has(object.maxLength)) delete object.maxLength;
    if (object.maximum === Number.MAX_SAFE_INTEGER) delete object.maximum;
    if (object.minimum === Number.MIN_SAFE_INTEGER) delete object.minimum;
    if (isEmptyObject(object.additionalProperties)) delete object.additionalProperties;
    if (JSON.stringify(object.propertyNames) === '{"type":"string"}') delete object.propertyNames;
    for (const [key, child] of Object.entries(object)) {
      // Inside `properties` the keys are field names: a field called "minLength" is no keyword.
      if (key === 'properties' && child && typeof child === 'object') Object.values(child).forEach(prune);
      else prune(child);
    }
  };
  prune(schema);
  return shareRepeatedSubschemas(schema);
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
