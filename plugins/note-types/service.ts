/**
 * note-types' public face: what other plugins (schema, notes) resolve, as types and tokens only
 * (decision 041). The folders and their `_description.md`s are read by type-folders.ts.
 */
import { token } from '../../kernel/container.js';
import type { FieldDefinition, JsonFieldInput, TypeSchema } from '../../toolkit/metadata-fields.js';

/**
 * A type's `_description.md` in seed 000's format: `# Name`, `## Purpose`, `## Agent
 * Instructions` (a bullet list) and `## Metadata Schema`, whose bullets are kept as text here:
 * the schema plugin gives them meaning.
 */
export interface TypeDescription {
  title: string;
  purpose: string;
  agentInstructions: string[];
  /** The raw bullet lines of `## Metadata Schema`, without the leading `- `. */
  schemaLines: string[];
}

export interface NoteTypeInfo {
  name: string;
  /** Absolute folder path. */
  path: string;
  description: TypeDescription;
  hasDescription: boolean;
  /** Hash of the `_description.md` bytes ('' when the file is missing). */
  contentHash: string;
  rawDescription?: string;
  /** Why the type's folder or description cannot be read (listed anyway, so one such folder does not hide the rest). */
  unreadable?: string;
}

/** NOTE_TYPES: what types a vault has and what each `_description.md` says. */
export interface NoteTypes {
  list(): Promise<NoteTypeInfo[]>;
  get(name: string): Promise<NoteTypeInfo | undefined>;
  descriptionPath(name: string): string;
}

export const NOTE_TYPES = token<NoteTypes>('note-types.service');

/**
 * SCHEMA_CODEC: how the note-type tools read and write a `## Metadata Schema` section. The port
 * is note-types' own and the schema plugin fills it, so the two plugins' imports point one way
 * (schema → note-types); a profile without the schema plugin leaves it empty and the tools say so.
 */
export interface SchemaCodec {
  /** Schema bullet lines → fields; never throws, faults land in `errors`. */
  parseLines(lines: readonly string[]): TypeSchema;
  /** JSON-form fields → definitions; throws `validation_failed` listing every fault. */
  fromJson(fields: readonly JsonFieldInput[]): FieldDefinition[];
  /** Definitions → `## Metadata Schema` bullet lines (without `- `). */
  toLines(fields: readonly FieldDefinition[]): string[];
  toJson(field: FieldDefinition): Record<string, unknown>;
}

export const SCHEMA_CODEC = token<SchemaCodec>('note-types.schema-codec');
