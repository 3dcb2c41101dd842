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
  /**
   * File facts, present where the backend keeps notes in files: where the note lives (seed 000
   * shows it), its file name, and its size in bytes. A store without files leaves them out
   * (toolkit/note-location.ts gives renderers a value for each either way).
   */
  path?: string;
  filename?: string;
  size?: number;
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
  /**
   * The update time to record, instead of now, where the store records one in the note: undo and
   * journal recovery put back a kept state byte for byte. Tools never set it.
   */
  updated?: string;
}

/**
 * An update as a function of the note it changes: the store calls it with the note as it read it
 * under its lock, after the hash check, and writes what it returns (one read per update). It runs
 * under that lock: it may read, but must not write the same note.
 */
export type NoteEdit = (current: Note) => NoteChange | Promise<NoteChange>;

/** What a listing returns: everything but the content. */
export interface NoteSummary {
  id: string;
  title: string;
  type?: string;
  created: string;
  updated: string;
  /** Same value a full read returns, so callers can tell what changed without reading the note. */
  contentHash: string;
  tags: string[];
  /** The same metadata a full read returns (a backend may parse it only when it is read). */
  metadata: Metadata;
  /** File facts, as on `Note`. */
  path?: string;
  filename?: string;
  size?: number;
}

export interface ListQuery {
  type?: string;
  limit?: number;
  offset?: number;
  /** Most recently updated first when set. */
  orderBy?: 'updated' | 'created' | 'title';
  direction?: 'asc' | 'desc';
}
