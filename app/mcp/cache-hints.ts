/**
 * How long a 2026-07-28 client may keep a list or read (`ttlMs`, `cacheScope`); 2025 answers carry
 * no hints. The tool, prompt and resource lists are fixed for the life of a served process (a
 * config change needs a restart), so a client may keep them for a while; they name no user's data,
 * so a shared cache may keep them too. A resource read is a view of notes that any write changes
 * (recent notes, stats, a note): it is not cached, and the client is told when it changes
 * (subscriptions/listen). server/discover is as fixed as the lists.
 */
import type { CacheHint } from '@modelcontextprotocol/server';

const LISTS: CacheHint = { ttlMs: 5 * 60_000, cacheScope: 'public' };

export const CACHE_HINTS = {
  'server/discover': LISTS,
  'tools/list': LISTS,
  'prompts/list': LISTS,
  'resources/list': LISTS,
  'resources/templates/list': LISTS,
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
} satisfies Record<string, CacheHint>;
