/**
 * The state of one Simperium bucket as the fake server keeps it: each object's version history,
 * and a bucket change version (cv) bumped on every applied change. The index is ordered by the
 * cv of each object's last change (newest first), which is also what `since` filters on, so a
 * listing and a later `since` listing never disagree about what changed.
 */
import { isDeepStrictEqual } from 'node:util';

export type ObjectData = Record<string, unknown>;

interface Entry {
  id: string;
  /** versions[0] is version 1. */
  versions: ObjectData[];
  /** The bucket cv of this object's last change. */
  cv: number;
}

export interface IndexEntry {
  id: string;
  v: number;
  d: ObjectData;
  cv: number;
}

export type PostOutcome =
  | { status: 'applied'; version: number; data: ObjectData }
  | { status: 'unchanged'; version: number; data: ObjectData }
  | { status: 'missing-version' };

/** Simplenote's note schema: a new note must carry every one of these (partial → 400). */
export const NOTE_REQUIRED_FIELDS = [
  'content',
  'tags',
  'systemTags',
  'creationDate',
  'modificationDate',
  'deleted',
  'shareURL',
  'publishURL',
] as const;

export function cvString(cv: number): string {
  return cv.toString(16).padStart(24, '0');
}

export function parseCv(text: string | undefined): number | undefined {
  if (text === undefined || !/^[0-9a-f]{1,24}$/i.test(text)) return undefined;
  return parseInt(text, 16);
}

export class FakeBucket {
  private readonly entries = new Map<string, Entry>();
  private cv = 0;

  get current(): number {
    return this.cv;
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: string, version?: number): { version: number; data: ObjectData } | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const v = version ?? entry.versions.length;
    const data = entry.versions[v - 1];
    return data === undefined ? undefined : { version: v, data: structuredClone(data) };
  }

  /**
   * Applies a POST. `baseVersion` (the `/v/:n` form) turns the body into a change against that
   * version: only the fields the writer changed relative to it overwrite the current object
   * (last writer wins per field), so a stale writer does not undo fields it never touched.
   */
  post(id: string, body: ObjectData, options: { replace?: boolean; baseVersion?: number } = {}): PostOutcome {
    const entry = this.entries.get(id);
    if (
      options.baseVersion !== undefined &&
      (!entry || options.baseVersion > entry.versions.length || options.baseVersion < 1)
    )
      return { status: 'missing-version' };
    const current = entry?.versions.at(-1);
    let next: ObjectData;
    if (!current || options.replace) next = structuredClone(body);
    else if (options.baseVersion !== undefined && options.baseVersion < entry!.versions.length) {
      const base = entry!.versions[options.baseVersion - 1]!;
      next = structuredClone(current);
      for (const [key, value] of Object.entries(body))
        if (!isDeepStrictEqual(base[key], value)) next[key] = structuredClone(value);
    } else next = { ...structuredClone(current), ...structuredClone(body) };
    if (entry && isDeepStrictEqual(next, current))
      return { status: 'unchanged', version: entry.versions.length, data: structuredClone(current!) };
    const target = entry ?? { id, versions: [], cv: 0 };
    target.versions.push(next);
    target.cv = ++this.cv;
    this.entries.set(id, target);
    return { status: 'applied', version: target.versions.length, data: structuredClone(next) };
  }

  /** Removes the object for good; it leaves the index and every later `since` listing. */
  delete(id: string): number | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    this.cv += 1;
    return entry.versions.length + 1;
  }

  /** Newest change first; `after` keeps objects changed after that cv, `upTo` those at or before it (the page mark). */
  index(filter: { after?: number; upTo?: number } = {}): IndexEntry[] {
    const rows: IndexEntry[] = [];
    for (const entry of this.entries.values()) {
      if (filter.after !== undefined && entry.cv <= filter.after) continue;
      if (filter.upTo !== undefined && entry.cv > filter.upTo) continue;
      rows.push({ id: entry.id, v: entry.versions.length, d: entry.versions.at(-1)!, cv: entry.cv });
    }
    return rows.sort((a, b) => b.cv - a.cv);
  }
}
