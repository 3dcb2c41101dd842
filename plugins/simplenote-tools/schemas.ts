/**
 * Seed 003 §9's zod schemas, as the seed gives them (note ids `z.string().min(1)`, the long field
 * names). The one addition is the `manage` action `sync` (issue 13: sync now instead of waiting
 * for the timer). Rules the seed states in prose (local_version with id, text or text_patch) are
 * checked by the tools, which name the field.
 */
import { z } from 'zod';
import { nameString } from '../../toolkit/tool-fields.js';

/** A note id as a tool takes it: Simperium's ids are short; a huge one is refused by validation, never sent. */
const noteId = () => nameString().min(1);

export const NoteTagsSchema = z.array(z.string());
export const UnixTimestampSchema = z.number().int();

export const ListInputSchema = z.object({
  query: z
    .string()
    .optional()
    .describe('full-text search; tag:NAME, before:YYYY-MM-DD, after:YYYY-MM-DD and trash:0|1|any in it become filters'),
  tags: z.array(nameString()).optional().describe('notes having ALL of these tags (in addition to tag: in query)'),
  trash_status: z.number().int().min(0).max(2).optional().describe('0 active (default), 1 trashed, 2 any'),
  date_before: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .describe('modified on or before this UTC date'),
  date_after: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .describe('modified on or after this UTC date'),
  sort_by: z
    .enum(['modified_at', 'created_at'])
    .optional()
    .describe('modified_at (default); with a text query, rank comes first'),
  sort_order: z.enum(['ASC', 'DESC']).optional().describe('DESC (default)'),
  limit: z.number().int().min(1).max(100).default(20).optional(),
  page: z.number().int().min(1).default(1).optional(),
});

export const ListItemSchema = z.object({
  type: z.literal('text'),
  uuid: z.string().min(1),
  text: z.string().min(1).max(80),
  local_version: z.number().int(),
  tags: NoteTagsSchema,
  modified_at: UnixTimestampSchema,
  trash: z.boolean(),
});

export const ListOutputSchema = z.object({ content: z.array(ListItemSchema), next_page: z.number().int().optional() });

export const NoteDataSchema = z.object({
  id: z.string().min(1),
  local_version: z.number().int(),
  server_version: z.number().int().optional(),
  text: z.string(),
  tags: NoteTagsSchema,
  modified_at: UnixTimestampSchema,
  created_at: UnixTimestampSchema.optional(),
  trash: z.boolean(),
  text_is_partial: z.boolean().optional(),
  text_total_lines: z.number().int().optional(),
  range_line_start: z.number().int().positive().optional(),
  range_line_count: z.number().int().nonnegative().optional(),
  notices: z.array(z.string()).optional().describe('e.g. read from the cache: Simplenote unreachable'),
});

export const GetInputSchema = z.object({
  id: noteId().describe("the note id (a list item's uuid)"),
  local_version: z.number().int().optional(),
  range_line_start: z.number().int().min(1).optional().describe('first line to return (1-based)'),
  range_line_count: z.number().int().min(0).optional().describe('how many lines (to the end when omitted)'),
});

export const PatchOperationSchema = z.object({
  operation: z.enum(['addition', 'modification', 'deletion']),
  line_number: z.number().int().min(1),
  value: z.string().optional().describe('required for addition and modification'),
});

export const SaveInputSchema = z.object({
  id: noteId().optional().describe('omit to create a note'),
  local_version: z.number().int().optional().describe('required with id: the version you read'),
  server_version: z.number().int().optional().describe('expected server version'),
  text: z.string().optional().describe('the whole text; its first line is the title'),
  text_patch: z
    .array(PatchOperationSchema)
    .optional()
    .describe(
      'line edits against the text of local_version: deletions, then modifications (line numbers of that text), then additions low to high (line numbers of the result)',
    ),
  tags: z.array(nameString()).optional().describe('single words'),
  trash: z.boolean().optional(),
});

export const ManageInputSchema = z.object({
  action: z.enum(['trash', 'untrash', 'delete_permanently', 'get_stats', 'reset_cache', 'sync']),
  id: noteId().optional().describe('required for trash, untrash, delete_permanently'),
  local_version: z.number().int().optional().describe('required for trash, untrash, delete_permanently'),
});

export const ManageNoteActionOutputSchema = z.object({
  id: z.string().min(1),
  status: z.enum(['trashed', 'untrashed', 'deleted']),
  new_local_version: z.number().int().optional(),
  new_server_version: z.number().int().optional(),
});

export type ListItem = z.infer<typeof ListItemSchema>;
export type ListOutput = z.infer<typeof ListOutputSchema>;
export type NoteData = z.infer<typeof NoteDataSchema>;
export type PatchOperation = z.infer<typeof PatchOperationSchema>;
export type ManageNoteActionOutput = z.infer<typeof ManageNoteActionOutputSchema>;

/** What a sync (or a cache reset, a full sync) did. */
const SyncReportShape = {
  full: z.boolean(),
  scanned: z.number(),
  indexed: z.number(),
  removed: z.number(),
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  ms: z.number(),
};

/** manage answers a note action, get_stats, or a sync / reset_cache report: one object, each field optional. */
export const ManageOutputSchema = z
  .object({
    ...ManageNoteActionOutputSchema.shape,
    notes: z.number(),
    trashed: z.number(),
    cursor: z.string(),
    lastSyncAt: z.string(),
    lastSync: z.object(SyncReportShape),
    lastError: z.string(),
    syncs: z.number(),
    failedSyncs: z.number(),
    cacheBytes: z.number(),
    // Loose on purpose: tools/list carries every byte of these schemas (README lists the fields).
    feedAnomalies: z.number(),
    lastFeedAnomaly: z.looseObject({}),
    sync: z.looseObject({}),
    unreachable: z.looseObject({}),
    ...SyncReportShape,
  })
  .partial();
