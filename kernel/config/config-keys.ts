/**
 * A config's refusal as `<file>: <key path>: <reason>`, an unknown key answered with the closest
 * valid one: the keys a zod object schema accepts at a path inside it. Walks through optional, default, union, record
 * and pipe wrappers; gives up (undefined) where the shape is not an object's.
 */
import type { z } from 'zod';
import { ConfigError } from '../errors.js';
import { closestName } from '../util/closest.js';

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

/** The object shapes reachable at this level (a union may offer several). */
function objects(schema: z.ZodType, depth = 0): Array<Record<string, z.ZodType>> {
  if (depth > 20) return [];
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return def.shape ? [def.shape] : [];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return def.innerType ? objects(def.innerType, depth + 1) : [];
    case 'pipe':
      return def.in ? objects(def.in, depth + 1) : [];
    case 'lazy':
      return def.getter ? objects(def.getter(), depth + 1) : [];
    case 'union':
      return (def.options ?? []).flatMap((option) => objects(option, depth + 1));
    default:
      return [];
  }
}

function child(schema: z.ZodType, key: string | number, depth = 0): z.ZodType[] {
  if (depth > 20) return [];
  const def = defOf(schema);
  switch (def.type) {
    case 'record':
      return def.valueType ? [def.valueType] : [];
    case 'array':
      return def.element ? [def.element] : [];
    case 'object':
      return def.shape && typeof key === 'string' && def.shape[key] ? [def.shape[key]] : [];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return def.innerType ? child(def.innerType, key, depth + 1) : [];
    case 'pipe':
      return def.in ? child(def.in, key, depth + 1) : [];
    case 'lazy':
      return def.getter ? child(def.getter(), key, depth + 1) : [];
    case 'union':
      return (def.options ?? []).flatMap((option) => child(option, key, depth + 1));
    default:
      return [];
  }
}

export function keysAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] | undefined {
  let current = [schema];
  for (const key of path) {
    if (typeof key === 'symbol') return undefined;
    current = current.flatMap((s) => child(s, key));
    if (!current.length) return undefined;
  }
  const keys = new Set(current.flatMap((s) => objects(s)).flatMap((shape) => Object.keys(shape)));
  return keys.size ? [...keys] : undefined;
}

/**
 * The first issue as `<file>: <key path>: <reason>`. An unknown key is named with the closest
 * valid one when `schema` (the schema that refused it) is given: `did you mean "defaultType"?`.
 */
export function configIssue(source: string, error: z.ZodError, prefix: readonly (string | number)[] = [], schema?: z.ZodType): ConfigError {
  const issue = error.issues[0];
  const unknown = issue?.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys : [];
  const where = [...prefix, ...(issue?.path ?? [])].map(String);
  if (issue && unknown.length) {
    const valid = schema ? keysAt(schema, issue.path) : undefined;
    const key = [...where, unknown[0] as string].join('.');
    const suggestion = valid ? closestName(unknown[0] as string, valid) : undefined;
    const reason = `unknown key${suggestion ? `; did you mean "${suggestion}"?` : ''}${valid ? ` (valid keys here: ${valid.join(', ')})` : ''}`;
    const more = unknown.length > 1 ? ` (also unknown: ${unknown.slice(1).join(', ')})` : '';
    return new ConfigError(`${source}: ${key}: ${reason}${more}`, { file: source, key, reason, ...(suggestion ? { did_you_mean: suggestion } : {}) });
  }
  const path = where.join('.') || '(root)';
  const reason = issue?.message ?? 'invalid';
  return new ConfigError(`${source}: ${path}: ${reason}`, { file: source, key: path, reason });
}
