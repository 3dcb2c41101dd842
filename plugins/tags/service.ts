/**
 * The tag service other plugins reach through TAGS (search's tag filters, memory's listings):
 * tags from frontmatter `tags` and inline `#tags`, case-insensitive, with nested tags (`#a/b`)
 * optionally counting as their parent.
 */
import { token } from '../../kernel/container.js';

export interface TagCount {
  /** The spelling most notes use. */
  tag: string;
  /** Notes carrying the tag. */
  count: number;
}

export interface TagQuery {
  /** Notes carrying every one of these tags. */
  all?: readonly string[];
  /** Notes carrying at least one of these. */
  any?: readonly string[];
  /** Notes carrying none of these. */
  none?: readonly string[];
  /** `a` also matches `a/b` (default true). */
  nested?: boolean;
}

export interface TagsService {
  list(options?: { prefix?: string }): Promise<TagCount[]>;
  /** A note's tags (frontmatter and inline, deduplicated, as written). */
  tagsOf(noteId: string): Promise<string[]>;
  /** Ids of notes matching the query, sorted. */
  notesWith(query: TagQuery): Promise<string[]>;
}

export const TAGS = token<TagsService>('tags.service');
