/**
 * The canonical note. Every storage backend maps its own format to this shape; every
 * profile's tools render it in their seed's response shape.
 */
export type MetadataValue = string | number | boolean | null | MetadataValue[] | { [key: string]: MetadataValue };
export type Metadata = Record<string, MetadataValue>;

export interface Note {
  /** Stable id, unique in the vault (fs-sqlite: `type/filename.md`; markdown-git: `id__XXXXXX`). */
  id: string;
  title: string;
  /** The body without frontmatter. */
  content: string;
  tags: string[];
  /** Frontmatter (or the backend's equivalent), including title/type/created/updated where stored. */
  metadata: Metadata;
  /** ISO-8601. */
  created: string;
  /** ISO-8601. */
  updated: string;
  /** Present where the backend has types (folders). */
  type?: string;
  /** `sha256:` + hex over the stored bytes: any change, by anyone, changes it. */
  contentHash: string;
  /** Where the note lives: an absolute file path for file backends (seed 000 shows it), a synthetic key otherwise. */
  path: string;
  filename: string;
  /** Bytes on disk. */
  size: number;
  /** Problems found while reading (bad frontmatter, ...): the note is still served. */
  warnings?: string[];
}

/** What a caller supplies to create a note. */
export interface NewNote {
  title: string;
  content: string;
  type?: string;
  metadata?: Metadata;
  tags?: string[];
  /** Backend-specific placement hint (e.g. a filename stem); the backend decides the id. */
  slug?: string;
}

/** A partial change; fields left undefined are kept. */
export interface NoteChange {
  title?: string;
  content?: string;
  /**
   * NoteService: merged key by key over the existing metadata, a `null` value removing that key.
   * NoteStore.update: the complete new metadata (the service has already merged it).
   */
  metadata?: Metadata;
  tags?: string[];
}

export interface NoteSummary {
  id: string;
  title: string;
  type?: string;
  path: string;
  filename: string;
  created: string;
  updated: string;
  size: number;
  /** Same value a full read returns, so callers can tell what changed without reading files. */
  contentHash: string;
  tags: string[];
}

export interface ListQuery {
  type?: string;
  limit?: number;
  offset?: number;
  /** Most recently updated first when set. */
  orderBy?: 'updated' | 'created' | 'title';
  direction?: 'asc' | 'desc';
}
