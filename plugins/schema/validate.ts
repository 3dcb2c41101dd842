/**
 * Metadata against a type's fields, with zod: each field becomes one zod schema (built once
 * per definition), each failure one issue naming the field, the rule and the value. Pure:
 * the hook decides what to do with the issues.
 */
import { z } from 'zod';
import type { Metadata, MetadataValue } from '../../kernel/note.js';
import { fieldProblems, isSystemKey, type FieldDefinition } from '../../toolkit/metadata-fields.js';

export type Rule = 'required' | 'type' | 'min' | 'max' | 'pattern' | 'options' | 'date' | 'unknown_field' | 'protected';

export interface FieldIssue {
  field: string;
  rule: Rule;
  value?: MetadataValue;
  message: string;
}

export interface CheckInput {
  fields: readonly FieldDefinition[];
  metadata: Metadata;
  op: 'create' | 'update';
  /** Keys the caller set in this operation: on update only these are checked for type and rules. */
  changedKeys: readonly string[];
  /** Unknown fields are errors instead of warnings. */
  strict: boolean;
}

export interface CheckResult {
  errors: FieldIssue[];
  warnings: FieldIssue[];
  /** The metadata with defaults filled in. */
  metadata: Metadata;
  /** Fields that received their default. */
  filled: string[];
}

/** Keys any note may carry whatever its schema says (the store's own tag list). */
const ALWAYS_KNOWN = new Set(['tags']);

export function checkMetadata(input: CheckInput): CheckResult {
  const metadata: Metadata = { ...input.metadata };
  const errors: FieldIssue[] = [];
  const warnings: FieldIssue[] = [];
  const filled: string[] = [];
  const byName = new Map(input.fields.map((f) => [f.name, f]));
  for (const field of input.fields) {
    if (isSystemKey(field.name)) continue;
    const missing = metadata[field.name] === undefined || metadata[field.name] === null;
    if (missing && field.default !== undefined && (input.op === 'create' || field.required)) {
      metadata[field.name] = field.default;
      filled.push(field.name);
    } else if (missing && field.required) {
      errors.push({
        field: field.name,
        rule: 'required',
        message: `Required field '${field.name}' is missing (${describeField(field)})`,
      });
    }
  }
  const keys = input.op === 'create' ? Object.keys(input.metadata) : input.changedKeys;
  for (const key of keys) {
    const value = metadata[key];
    if (isSystemKey(key) || value === undefined || value === null) continue;
    const field = byName.get(key);
    if (!field) {
      if (ALWAYS_KNOWN.has(key)) continue;
      const issue: FieldIssue = {
        field: key,
        rule: 'unknown_field',
        value,
        message: `Unknown field '${key}' is not defined in the type's metadata schema`,
      };
      (input.strict ? errors : warnings).push(issue);
      continue;
    }
    const issue = checkValue(field, value);
    if (issue) errors.push(issue);
  }
  return { errors, warnings, metadata, filled };
}

/** The first rule `value` breaks, or undefined when it fits the field. */
export function checkValue(field: FieldDefinition, value: MetadataValue): FieldIssue | undefined {
  const result = zodFor(field).safeParse(value);
  if (result.success) return undefined;
  const rule = ruleOf(field, result.error.issues[0]);
  return {
    field: field.name,
    rule,
    value,
    message: `Field '${field.name}' ${ruleMessage(field, rule)} (got ${shown(value)})`,
  };
}

/** fieldProblems plus a default that breaks its own field's rules. */
export function definitionProblems(field: FieldDefinition): string[] {
  const problems = fieldProblems(field);
  if (problems.length === 0 && field.default !== undefined) {
    const issue = checkValue(field, field.default);
    if (issue)
      problems.push(`field '${field.name}': default ${shown(field.default)} ${ruleMessage(field, issue.rule)}`);
  }
  return problems;
}

const compiled = new WeakMap<FieldDefinition, z.ZodType>();

function zodFor(field: FieldDefinition): z.ZodType {
  let schema = compiled.get(field);
  if (!schema) {
    schema = buildZod(field);
    compiled.set(field, schema);
  }
  return schema;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function isDate(value: string, dayOnly: boolean): boolean {
  if (dayOnly) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
    const day = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
  }
  return ISO_DATE.test(value) && !Number.isNaN(Date.parse(value));
}

function buildZod(field: FieldDefinition): z.ZodType {
  const c = field.constraints ?? {};
  switch (field.type) {
    case 'string': {
      let s = z.string();
      if (c.min !== undefined) s = s.min(c.min);
      if (c.max !== undefined) s = s.max(c.max);
      if (c.pattern !== undefined) s = s.regex(new RegExp(c.pattern));
      return s;
    }
    case 'number': {
      let n = z.number();
      if (c.min !== undefined) n = n.min(c.min);
      if (c.max !== undefined) n = n.max(c.max);
      return n;
    }
    case 'boolean':
      return z.boolean();
    case 'date':
      return z.string().refine((v) => isDate(v, c.format === 'YYYY-MM-DD'), { params: { rule: 'date' } });
    case 'array': {
      let a = z.array(z.unknown());
      if (c.min !== undefined) a = a.min(c.min);
      if (c.max !== undefined) a = a.max(c.max);
      return a;
    }
    case 'select':
      return z.enum((c.options ?? []) as [string, ...string[]]);
  }
}

function ruleOf(field: FieldDefinition, issue: z.core.$ZodIssue | undefined): Rule {
  if (field.type === 'select') return 'options';
  switch (issue?.code) {
    case 'too_small':
      return 'min';
    case 'too_big':
      return 'max';
    case 'invalid_format':
      return 'pattern';
    case 'custom':
      return 'date';
    default:
      return 'type';
  }
}

function ruleMessage(field: FieldDefinition, rule: Rule): string {
  const c = field.constraints ?? {};
  const unit = field.type === 'array' ? ' items' : field.type === 'string' ? ' characters' : '';
  switch (rule) {
    case 'min':
      return field.type === 'number' ? `must be at least ${c.min}` : `must have at least ${c.min}${unit}`;
    case 'max':
      return field.type === 'number' ? `must be at most ${c.max}` : `must have at most ${c.max}${unit}`;
    case 'pattern':
      return `must match pattern ${c.pattern}`;
    case 'options':
      return `must be one of: ${(c.options ?? []).join(', ')}`;
    case 'date':
      return c.format === 'YYYY-MM-DD'
        ? 'must be a date in the form YYYY-MM-DD'
        : 'must be an ISO 8601 date (e.g. 2024-01-15 or 2024-01-15T10:30:00Z)';
    default:
      return `must be ${field.type === 'array' ? 'an array' : `a ${field.type === 'date' ? 'date string' : field.type}`}`;
  }
}

export function describeField(field: FieldDefinition): string {
  const c = field.constraints;
  return [field.type, c?.options ? `one of ${c.options.join('/')}` : ''].filter(Boolean).join(', ');
}

function shown(value: MetadataValue): string {
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
