/** The `## Metadata Schema` bullet format: seed lines, malformed lines, and format → parse round trips. */
import { describe, expect, it } from 'vitest';
import { parseSchemaLines } from '../../../plugins/schema/bullet-parse.js';
import { formatSchemaLine } from '../../../plugins/schema/bullet-format.js';
import type { FieldDefinition } from '../../../toolkit/metadata-fields.js';
import { DEFAULT_TYPES } from '../../../plugins/note-types/defaults.js';

describe('parseSchemaLines', () => {
  it("reads seed 000's example schema", () => {
    const schema = parseSchemaLines([
      'author: Author name (required, string)',
      'rating: Personal rating (required, number, min: 1, max: 5)',
      'genre: Book genre (optional, string)',
      'isbn: ISBN number (optional, string, pattern: "^[0-9-]{10,17}$")',
      'status: Reading status (optional, select, options: ["to-read", "reading", "completed"])',
      'tags: Topic tags (optional, array)',
      'finished_date: Date completed (optional, date)',
    ]);
    expect(schema.errors).toEqual([]);
    expect(schema.warnings).toEqual([]);
    expect(schema.fields).toEqual([
      { name: 'author', type: 'string', description: 'Author name', required: true },
      {
        name: 'rating',
        type: 'number',
        description: 'Personal rating',
        required: true,
        constraints: { min: 1, max: 5 },
      },
      { name: 'genre', type: 'string', description: 'Book genre', required: false },
      {
        name: 'isbn',
        type: 'string',
        description: 'ISBN number',
        required: false,
        constraints: { pattern: '^[0-9-]{10,17}$' },
      },
      {
        name: 'status',
        type: 'select',
        description: 'Reading status',
        required: false,
        constraints: { options: ['to-read', 'reading', 'completed'] },
      },
      { name: 'tags', type: 'array', description: 'Topic tags', required: false },
      { name: 'finished_date', type: 'date', description: 'Date completed', required: false },
    ]);
  });

  it.each(DEFAULT_TYPES.map((t) => [t.name, t.schema] as const))(
    'parses the default type %s without errors',
    (_name, lines) => {
      const schema = parseSchemaLines(lines);
      expect(schema.errors).toEqual([]);
      expect(schema.fields).toHaveLength(lines.length);
    },
  );

  it('marks vault-owned keys as documented only, and reads format and defaults', () => {
    const schema = parseSchemaLines([
      'title: Title of the material (required, string)',
      'created: Creation timestamp (auto-set)',
      'date: Date of entry (required, date, format: YYYY-MM-DD)',
      'level: Level (optional, number, default: 3)',
      'mode: Mode (optional, select, options: ["a, b", "c"], default: "c")',
    ]);
    expect(schema.errors).toEqual([]);
    expect(schema.warnings).toEqual([
      expect.stringContaining("'title' is set by the vault"),
      expect.stringContaining("'created' is set by the vault"),
    ]);
    const byName = new Map(schema.fields.map((f) => [f.name, f]));
    expect(byName.get('date')?.constraints).toEqual({ format: 'YYYY-MM-DD' });
    expect(byName.get('level')?.default).toBe(3);
    expect(byName.get('mode')).toMatchObject({ constraints: { options: ['a, b', 'c'] }, default: 'c' });
  });

  it('keeps parentheses in a description and reads only the last group as attributes', () => {
    const [field] = parseSchemaLines(['score: Score (1 to 5) given (optional, number, max: 5)']).fields;
    expect(field).toMatchObject({ description: 'Score (1 to 5) given', type: 'number', constraints: { max: 5 } });
  });

  it('treats a line without an attribute group as an optional string, with a warning', () => {
    const schema = parseSchemaLines(['notes: free text']);
    expect(schema.fields).toEqual([{ name: 'notes', type: 'string', description: 'free text', required: false }]);
    expect(schema.warnings[0]).toMatch(/no "\(required\|optional, type\)"/);
  });

  it('reports each malformed line naming the field and the fault, and keeps the sound fields', () => {
    const schema = parseSchemaLines([
      'ok: Fine (required, string)',
      'count: Count (required, integer)',
      'rating: Rating (optional, number, min: one)',
      'isbn: ISBN (optional, string, pattern: "([a-z")',
      'status: Status (optional, select)',
      'size: Size (optional, number, min: 5, max: 1)',
      'level: Level (optional, number, default: "high")',
      'color: Color (optional, string, colour: red)',
      'ok: Again (optional, string)',
      'no colon here',
    ]);
    expect(schema.fields.map((f) => f.name)).toEqual(['ok']);
    expect(schema.errors).toEqual([
      expect.stringMatching(/field 'count': unknown attribute 'integer'/),
      expect.stringMatching(/field 'rating': min "one" is not a number/),
      expect.stringMatching(/field 'isbn': pattern "\(\[a-z" is not a valid regular expression/),
      expect.stringMatching(/field 'status': a select field needs options/),
      expect.stringMatching(/field 'size': min \(5\) is greater than max \(1\)/),
      expect.stringMatching(/field 'level': default "high" must be a number/),
      expect.stringMatching(/field 'color': unknown key 'colour'/),
      expect.stringMatching(/field 'ok': defined twice/),
      expect.stringMatching(/line "no colon here": not in the form/),
    ]);
  });
});

describe('formatSchemaLine', () => {
  const fields: FieldDefinition[] = [
    { name: 'rating', type: 'number', description: 'Personal rating', required: true, constraints: { min: 1, max: 5 } },
    {
      name: 'code',
      type: 'string',
      description: 'A code',
      required: false,
      constraints: { pattern: '^\\d{3}-"x",(y)$' },
    },
    {
      name: 'state',
      type: 'select',
      description: 'State, with a comma',
      required: false,
      constraints: { options: ['a, b', 'say "hi"'] },
      default: 'a, b',
    },
    { name: 'day', type: 'date', description: 'Day', required: true, constraints: { format: 'YYYY-MM-DD' } },
    {
      name: 'flags',
      type: 'array',
      description: 'Flags (multi\nline)',
      required: false,
      constraints: { max: 3 },
      default: ['x'],
    },
    { name: 'done', type: 'boolean', description: '', required: false, default: false },
  ];

  it('writes the documented form', () => {
    expect(formatSchemaLine(fields[0] as FieldDefinition)).toBe(
      'rating: Personal rating (required, number, min: 1, max: 5)',
    );
  });

  it('reads back to the same definitions (quotes, commas, backslashes and parentheses included)', () => {
    const parsed = parseSchemaLines(fields.map(formatSchemaLine));
    expect(parsed.errors).toEqual([]);
    expect(parsed.fields).toEqual(
      fields.map((f) => ({ ...f, description: f.description.replace(/\s+/g, ' ') || f.name })),
    );
  });
});
