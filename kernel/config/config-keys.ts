/**
 * A config's refusal as `<file>: <key path>: <reason>`, an unknown key answered with the closest
 * valid one: the keys a zod object schema accepts at a path inside it, through optional, default,
 * union, record and pipe wrappers (undefined where the shape is not an object's).
 */
import type { z } from 'zod';
import { ConfigError } from '../errors.js';
import { editDistance } from '../util/closest.js';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  valueType?: z.ZodType;
  element?: z.ZodType;
  getter?: () => z.ZodType;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The schemas under the wrappers at this level (a union may offer several). */
function unwrapped(schema: z.ZodType, depth = 0): z.ZodType[] {
  if (depth > 20) return [];
  const def = defOf(schema);
  if (WRAPPERS.has(def.type)) return def.innerType ? unwrapped(def.innerType, depth + 1) : [];
  if (def.type === 'pipe') return def.in ? unwrapped(def.in, depth + 1) : [];
  if (def.type === 'lazy') return def.getter ? unwrapped(def.getter(), depth + 1) : [];
  if (def.type === 'union') return (def.options ?? []).flatMap((option) => unwrapped(option, depth + 1));
  return [schema];
}

function child(schema: z.ZodType, key: string | number): z.ZodType[] {
  return unwrapped(schema).flatMap((inner) => {
    const def = defOf(inner);
    if (def.type === 'record') return def.valueType ? [def.valueType] : [];
    if (def.type === 'array') return def.element ? [def.element] : [];
    if (def.type === 'object') return def.shape && typeof key === 'string' && def.shape[key] ? [def.shape[key]] : [];
    return [];
  });
}

export function keysAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] | undefined {
  let current = [schema];
  for (const key of path) {
    if (typeof key === 'symbol') return undefined;
    current = current.flatMap((s) => child(s, key));
    if (!current.length) return undefined;
  }
  const keys = new Set(current.flatMap((s) => unwrapped(s)).flatMap((s) => Object.keys(defOf(s).shape ?? {})));
  return keys.size ? [...keys] : undefined;
}

/**
 * The first issue as `<file>: <key path>: <reason>`. An unknown key is named with the closest
 * valid one when `schema` (the schema that refused it) is given: `did you mean "defaultType"?`.
 */
export function configIssue(
  source: string,
  error: z.ZodError,
  prefix: readonly (string | number)[] = [],
  schema?: z.ZodType,
): ConfigError {
  const issue = error.issues[0];
  const unknown = issue?.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys : [];
  const where = [...prefix, ...(issue?.path ?? [])].map(String);
  if (issue && unknown.length) {
    const valid = schema ? keysAt(schema, issue.path) : undefined;
    const key = [...where, unknown[0] as string].join('.');
    const suggestion = valid ? closestName(unknown[0] as string, valid) : undefined;
    const reason = `unknown key${suggestion ? `; did you mean "${suggestion}"?` : ''}${valid ? ` (valid keys here: ${valid.join(', ')})` : ''}`;
    const more = unknown.length > 1 ? ` (also unknown: ${unknown.slice(1).join(', ')})` : '';
    return new ConfigError(`${source}: ${key}: ${reason}${more}`, {
      file: source,
      key,
      reason,
      ...(suggestion ? { did_you_mean: suggestion } : {}),
    });
  }
  const path = where.join('.') || '(root)';
  const reason = issue?.message ?? 'invalid';
  return new ConfigError(`${source}: ${path}: ${reason}`, { file: source, key: path, reason });
}

/** The closest of some names to a misspelt one, for "did you mean" hints (edit distance). */
export function closestName(input: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(input.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  // Beyond ~40 % of the name the "closest" is a guess, not a spelling fix.
  return best !== undefined && bestDistance <= Math.max(2, Math.ceil(input.length * 0.4)) ? best : undefined;
}
