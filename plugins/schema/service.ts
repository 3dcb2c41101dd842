/**
 * SCHEMA: a note type's metadata schema as one field model, whichever way it was written.
 * note-types (create/get/update_note_type) and notes (create/update warnings, analyze_note)
 * reach it through this token; parsed schemas are cached by the description's content hash,
 * so an edit to `_description.md` is seen on the next call.
 */
import { token } from '../../kernel/container.js';
import { ValidationError } from '../../kernel/errors.js';
import type { Metadata } from '../../kernel/note.js';
import type { NoteTypes } from '../note-types/service.js';
import { parseSchemaLines } from './bullet-parse.js';
import { formatSchemaLine } from './bullet-format.js';
import type { FieldDefinition, JsonFieldInput, TypeSchema } from '../../toolkit/metadata-fields.js';
import { fieldsFromJson, fieldToJson } from './json-fields.js';
import { checkMetadata, type CheckResult } from './validate.js';

// The contract other plugins meet through the token (note-types, notes); the field model it speaks
// in is toolkit/metadata-fields.ts, which no plugin owns.
export type { FieldIssue, Rule, CheckResult } from './validate.js';

export interface SchemaCheckRequest {
  type: string;
  metadata: Metadata;
  op: 'create' | 'update';
  changedKeys: readonly string[];
  strict: boolean;
}

export interface SchemaService {
  /** The type's schema (fields, errors, warnings); undefined when the type does not exist. */
  forType(type: string): Promise<TypeSchema | undefined>;
  /** Schema bullet lines → fields; never throws, faults land in `errors`. */
  parseLines(lines: readonly string[]): TypeSchema;
  /** JSON-form fields → definitions; throws `validation_failed` listing every fault. */
  fromJson(fields: readonly JsonFieldInput[]): FieldDefinition[];
  /** Definitions → `## Metadata Schema` bullet lines (without `- `). */
  toLines(fields: readonly FieldDefinition[]): string[];
  toJson(field: FieldDefinition): Record<string, unknown>;
  /** Checks metadata against the type's schema without writing; no schema → nothing to report. */
  check(request: SchemaCheckRequest): Promise<CheckResult & { schema?: TypeSchema }>;
}

export const SCHEMA = token<SchemaService>('schema.service');

const CACHE_LIMIT = 256;

export function createSchemaService(types: NoteTypes): SchemaService {
  const cache = new Map<string, TypeSchema>();
  const parseLines = (lines: readonly string[]) => parseSchemaLines(lines);
  const service: SchemaService = {
    parseLines,
    async forType(type) {
      const info = await types.get(type);
      if (!info) return undefined;
      const key = info.contentHash || `missing:${type}`;
      let schema = cache.get(key);
      if (!schema) {
        schema = parseLines(info.description.schemaLines);
        if (cache.size >= CACHE_LIMIT) cache.clear();
        cache.set(key, schema);
      }
      return schema;
    },
    fromJson(input) {
      const { fields, errors } = fieldsFromJson(input);
      if (errors.length) {
        throw new ValidationError(`Invalid metadata_schema: ${errors.join('; ')}`, { field: 'metadata_schema', errors });
      }
      return fields;
    },
    toLines: (fields) => fields.map(formatSchemaLine),
    toJson: fieldToJson,
    async check(request) {
      const schema = await service.forType(request.type);
      if (!schema) return { errors: [], warnings: [], metadata: request.metadata, filled: [] };
      return { ...checkMetadata({ fields: schema.fields, ...request }), schema };
    },
  };
  return service;
}
