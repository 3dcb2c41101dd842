/**
 * What `invoke()` does to raw arguments before zod sees them, the same for every tool (decision
 * 003): refuse an unknown name that is a near miss of a known one (`feilds`), set aside with a
 * notice one near none (a client's `timeout`), and accept the spellings agents send where the
 * seeds leave them open — a numeric string for a number, one string for a list, a `limit` above
 * the maximum (clamped, with a notice). Top-level keys only; an open (`.loose()`) schema takes any key.
 */
import type { z } from 'zod';
import { ValidationError } from './errors.js';
import type { AnyTool } from './tool.js';
import { nearMiss } from './util/closest.js';

/** The router's argument (which vault a call is for): known to every tool. */
const ROUTING_ARGUMENTS = new Set(['vault_id']);

export interface PreparedArgs {
  args: unknown;
  notices: string[];
}

export function prepareArgs(tool: AnyTool, raw: unknown): PreparedArgs {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { args: raw, notices: [] };
  const shape = tool.input.shape as Record<string, z.ZodType>;
  const catchall = (tool.input._zod.def as { catchall?: z.ZodType }).catchall;
  const open = catchall !== undefined && catchall._zod.def.type !== 'never';
  const args: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  const notices: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    const field = shape[key];
    if (!field) {
      if (open || ROUTING_ARGUMENTS.has(key)) continue;
      const known = Object.keys(shape).join(', ') || '(none)';
      const near = nearMiss(key, Object.keys(shape));
      if (!near) {
        delete args[key];
        notices.push(`Unknown argument "${key}" ignored: ${tool.name} takes ${known}.`);
        continue;
      }
      throw new ValidationError(
        `Unknown argument "${key}" for ${tool.name} — did you mean "${near}"? Known arguments: ${known}.`,
        {
          tool: tool.name,
          field: key,
          fields: [key],
          suggestion: near,
          known: Object.keys(shape),
        },
      );
    }
    const inner = unwrap(field);
    const kind = inner._zod.def.type;
    if (kind === 'number' && typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value))
      args[key] = Number(value);
    if (
      kind === 'array' &&
      typeof value === 'string' &&
      unwrap((inner._zod.def as unknown as { element: z.ZodType }).element)._zod.def.type === 'string'
    )
      args[key] = [value];
    const max = kind === 'number' ? (inner as unknown as { maxValue: number | null }).maxValue : null;
    if (key === 'limit' && max !== null && typeof args[key] === 'number' && (args[key] as number) > max) {
      notices.push(
        `limit ${String(args[key])} is above the maximum ${max}: ${max} used; page with offset (or narrow the query) for more.`,
      );
      args[key] = max;
    }
  }
  return { args, notices };
}

/** Adds the notices to an object answer (arrays and scalars have nowhere to carry them). */
export function withNotices(result: unknown, notices: string[]): unknown {
  if (!notices.length || result === null || typeof result !== 'object' || Array.isArray(result)) return result;
  // After the tool's own notices (a cached copy's age, say), never instead of them.
  const own = (result as { notices?: unknown }).notices;
  return {
    ...(result as Record<string, unknown>),
    notices: Array.isArray(own) ? [...(own as string[]), ...notices] : notices,
  };
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: z.ZodType };
    if (!['optional', 'default', 'nullable', 'prefault', 'readonly', 'catch'].includes(def.type) || !def.innerType)
      return current;
    current = def.innerType;
  }
}
