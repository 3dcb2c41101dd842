/**
 * The SCHEMA service: each type's schema parsed from its `_description.md` and cached by the
 * description's content hash, so an edit is seen on the next call; and the checks against it.
 */
import { ValidationError } from '../../kernel/errors.js';
import type { NoteTypes } from '../note-types/service.js';
import { parseSchemaLines } from './bullet-parse.js';
import { formatSchemaLine } from './bullet-format.js';
import type { TypeSchema } from '../../toolkit/metadata-fields.js';
import { fieldsFromJson, fieldToJson } from './json-fields.js';
import type { SchemaService } from './service.js';
import { checkMetadata } from './validate.js';

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
        throw new ValidationError(`Invalid metadata_schema: ${errors.join('; ')}`, {
          field: 'metadata_schema',
          errors,
        });
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
