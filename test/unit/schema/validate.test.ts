/** Metadata against fields: every rule names the field, the rule and the value. */
import { describe, expect, it } from 'vitest';
import type { FieldDefinition } from '../../../toolkit/metadata-fields.js';
import { fieldsFromJson } from '../../../plugins/schema/json-fields.js';
import { checkMetadata, checkValue } from '../../../plugins/schema/validate.js';

const fields: FieldDefinition[] = [
  { name: 'author', type: 'string', description: '', required: true },
  { name: 'rating', type: 'number', description: '', required: true, constraints: { min: 1, max: 5 } },
  { name: 'isbn', type: 'string', description: '', required: false, constraints: { pattern: '^[0-9-]{10,17}$' } },
  {
    name: 'status',
    type: 'select',
    description: '',
    required: false,
    constraints: { options: ['to-read', 'done'] },
    default: 'to-read',
  },
  { name: 'tags', type: 'array', description: '', required: false, constraints: { max: 2 } },
  { name: 'finished', type: 'date', description: '', required: false },
  { name: 'day', type: 'date', description: '', required: false, constraints: { format: 'YYYY-MM-DD' } },
  { name: 'public', type: 'boolean', description: '', required: false },
  { name: 'type', type: 'select', description: '', required: true, constraints: { options: ['book'] } },
];

const field = (name: string) => fields.find((f) => f.name === name) as FieldDefinition;
const create = (metadata: Record<string, never | unknown>, strict = false) =>
  checkMetadata({ fields, metadata: metadata as never, op: 'create', changedKeys: Object.keys(metadata), strict });

describe('checkValue', () => {
  it.each([
    ['rating', '5', 'type', 'must be a number'],
    ['rating', 0, 'min', 'must be at least 1'],
    ['rating', 6, 'max', 'must be at most 5'],
    ['isbn', 'abc', 'pattern', 'must match pattern ^[0-9-]{10,17}$'],
    ['status', 'reading', 'options', 'must be one of: to-read, done'],
    ['status', 3, 'options', 'must be one of: to-read, done'],
    ['tags', 'a', 'type', 'must be an array'],
    ['tags', ['a', 'b', 'c'], 'max', 'must have at most 2 items'],
    ['finished', 'yesterday', 'date', 'ISO 8601'],
    ['finished', '1', 'date', 'ISO 8601'],
    ['day', '2024-02-30', 'date', 'YYYY-MM-DD'],
    ['day', '2024-01-15T10:00:00Z', 'date', 'YYYY-MM-DD'],
    ['public', 'yes', 'type', 'must be a boolean'],
  ])('%s = %j breaks %s', (name, value, rule, message) => {
    const issue = checkValue(field(name), value as never);
    expect(issue).toMatchObject({ field: name, rule, value });
    expect(issue?.message).toContain(`Field '${name}'`);
    expect(issue?.message).toContain(message);
    expect(issue?.message).toContain(`(got ${JSON.stringify(value)})`);
  });

  it.each([
    ['rating', 3],
    ['isbn', '978-0735211292'],
    ['status', 'done'],
    ['tags', ['a']],
    ['finished', '2024-01-15T00:00:00Z'],
    ['finished', '2024-01-15'],
    ['day', '2024-02-29'],
    ['public', false],
  ])('%s = %j is valid', (name, value) => {
    expect(checkValue(field(name), value as never)).toBeUndefined();
  });
});

describe('checkMetadata', () => {
  it('reports every missing required field and every broken rule at once', () => {
    const result = create({ rating: 9, isbn: 'x' });
    expect(result.errors.map((e) => [e.field, e.rule])).toEqual([
      ['author', 'required'],
      ['rating', 'max'],
      ['isbn', 'pattern'],
    ]);
  });

  it('fills defaults on create and leaves vault-owned keys (type, title) to the vault', () => {
    const result = create({ author: 'A', rating: 4 });
    expect(result.errors).toEqual([]);
    expect(result.filled).toEqual(['status']);
    expect(result.metadata).toEqual({ author: 'A', rating: 4, status: 'to-read' });
  });

  it('warns about unknown fields, and refuses them under strict validation', () => {
    expect(create({ author: 'A', rating: 4, mood: 'ok', tags: ['x'] }).warnings).toEqual([
      expect.objectContaining({ field: 'mood', rule: 'unknown_field', value: 'ok' }),
    ]);
    const strict = create({ author: 'A', rating: 4, mood: 'ok' }, true);
    expect(strict.errors).toEqual([expect.objectContaining({ field: 'mood', rule: 'unknown_field' })]);
  });

  it('on update checks only the changed keys (plus required presence)', () => {
    const stored = { author: 'A', rating: 4, isbn: 'legacy-bad', extra: 1 };
    const ok = checkMetadata({
      fields,
      metadata: { ...stored, status: 'done' },
      op: 'update',
      changedKeys: ['status'],
      strict: true,
    });
    expect(ok.errors).toEqual([]);
    expect(ok.warnings).toEqual([]);
    const removed = checkMetadata({
      fields,
      metadata: { rating: 4 },
      op: 'update',
      changedKeys: ['author'],
      strict: false,
    });
    expect(removed.errors).toEqual([expect.objectContaining({ field: 'author', rule: 'required' })]);
    const optionalDefault = checkMetadata({
      fields,
      metadata: { author: 'A', rating: 4 },
      op: 'update',
      changedKeys: ['rating'],
      strict: false,
    });
    expect(optionalDefault.filled).toEqual([]); // defaults of optional fields are a create-time convenience
  });
});

describe('fieldsFromJson', () => {
  it('converts the JSON form and collects every fault', () => {
    const { fields: out, errors } = fieldsFromJson([
      { name: 'rating', type: 'number', required: true, description: 'Rating', constraints: { min: 1, max: 5 } },
      { name: 'status', type: 'select' },
      { name: 'rating', type: 'string' },
      { name: 'bad name', type: 'string' },
      { name: 'level', type: 'number', default: 9, constraints: { max: 5 } },
    ]);
    expect(out[0]).toEqual({
      name: 'rating',
      type: 'number',
      description: 'Rating',
      required: true,
      constraints: { min: 1, max: 5 },
    });
    expect(errors).toEqual([
      expect.stringMatching(/field 'status': a select field needs options/),
      expect.stringMatching(/field 'rating': defined twice/),
      expect.stringMatching(/field 'bad name': name must be letters/),
      expect.stringMatching(/field 'level': default 9 must be at most 5/),
    ]);
  });
});
