/**
 * A note type is a folder, so its name must be one safe folder name on every filesystem we
 * meet: no separators or `..`, not hidden (the vault's `.flint-note` lives there), not a
 * Windows device name, and within the character set the fs-sqlite layout accepts.
 */
import { ValidationError } from '../kernel/errors.js';

const TYPE_NAME = /^[\p{L}\p{N}][\p{L}\p{N}_-]{0,63}$/u;
const RESERVED = new Set([
  'node_modules',
  'con',
  'prn',
  'aux',
  'nul',
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((n) => [`com${n}`, `lpt${n}`]),
]);

export function typeNameProblem(name: string): { rule: string; reason: string } | undefined {
  if (name.length === 0) return { rule: 'empty', reason: 'it is empty' };
  if (/[/\\\0]/.test(name) || name.includes('..'))
    return { rule: 'traversal', reason: 'path separators, NUL bytes and ".." are not allowed' };
  if (name.startsWith('.'))
    return { rule: 'reserved', reason: 'hidden names are reserved for the vault (e.g. .flint-note)' };
  if (!TYPE_NAME.test(name)) {
    return {
      rule: 'characters',
      reason: 'use letters, digits, "_" and "-", starting with a letter or digit, at most 64 characters',
    };
  }
  if (RESERVED.has(name.toLowerCase())) return { rule: 'reserved', reason: `"${name}" is a reserved name` };
  return undefined;
}

/** Returns the name, or throws `validation_failed` naming the argument, the rule and the value. */
export function assertTypeName(name: string, field = 'type_name'): string {
  const problem = typeNameProblem(name);
  if (problem) {
    throw new ValidationError(`Invalid note type name "${name.replace(/\0/g, '\\0')}": ${problem.reason}.`, {
      field,
      rule: problem.rule,
      value: name.replace(/\0/g, '\\0'),
    });
  }
  return name;
}
