/**
 * The values of a metadata filter as every SQL backend reads them, before its own dialect writes
 * the comparison: one scalar for a comparison operator, a bounded list for IN, and whether a value
 * counts as a number or a date. One place, so fs-sqlite and postgres refuse and coerce alike.
 */
import type { MetadataOperator, MetadataScalar } from '../../kernel/backend.js';
import { ValidationError } from '../../kernel/errors.js';

/** An IN list longer than this is refused, not truncated. */
export const MAX_IN_VALUES = 100;

const DATE_LIKE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

export function isDateLike(value: MetadataScalar): boolean {
  return typeof value === 'string' && DATE_LIKE.test(value.trim());
}

export function numberOf(value: MetadataScalar): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const parsed = Number(value.trim());
  return Number.isFinite(parsed) ? parsed : null;
}

function isScalar(value: unknown): value is MetadataScalar {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

export function scalarOf(value: unknown, operator: MetadataOperator, field: string): MetadataScalar {
  if (Array.isArray(value))
    throw new ValidationError(`${field}: operator ${operator} takes one value; use IN for a list.`, { field });
  if (!isScalar(value)) throw new ValidationError(`${field}: give a string, number, boolean or null.`, { field });
  if (value === null && operator !== '=' && operator !== '!=')
    throw new ValidationError(`${field}: null compares only with = and !=.`, { field });
  return value;
}

export function listOf(value: unknown, field: string): MetadataScalar[] {
  const list =
    typeof value === 'string'
      ? value
          .split(',')
          .map((v) => v.trim())
          .filter((v) => v !== '')
      : value;
  if (!Array.isArray(list) || list.length === 0 || !list.every(isScalar))
    throw new ValidationError(`${field}: IN takes a non-empty list of values (or a comma-separated string).`, {
      field,
    });
  if (list.length > MAX_IN_VALUES)
    throw new ValidationError(`${field}: IN takes at most ${MAX_IN_VALUES} values.`, { field });
  return list as MetadataScalar[];
}
