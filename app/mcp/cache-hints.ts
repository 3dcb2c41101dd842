/**
 * How long a 2026-07-28 client may keep a list or read (`ttlMs`, `cacheScope`); 2025 answers carry
 * no hints. The tool, prompt and template lists are fixed for the life of a served process (a
 * config change needs a restart) and name no user's data: any cache may keep them a while. The
 * resource list carries the skills, which change with the note types and name them, and
 * server/discover's instructions name the current vault: neither is kept. A resource read is a view
 * of notes that any write changes (recent notes, stats, a note): not kept either, and the client is
 * told when it changes (subscriptions/listen).
 */
import type { CacheHint } from '@modelcontextprotocol/server';

const FIXED: CacheHint = { ttlMs: 5 * 60_000, cacheScope: 'public' };
const CHANGING: CacheHint = { ttlMs: 0, cacheScope: 'private' };

export const CACHE_HINTS = {
  'server/discover': CHANGING,
  'tools/list': FIXED,
  'prompts/list': FIXED,
  'resources/list': CHANGING,
  'resources/templates/list': FIXED,
  'resources/read': CHANGING,
} satisfies Record<string, CacheHint>;
