/**
 * Every chunk vector of a vault in one contiguous block of floats, scanned in full per query
 * (`dot-rows.ts`, WebAssembly SIMD). At 13,000 chunks × 512-d that is 27 MB and ~3 ms of CPU
 * (decision 023): no approximate index to build, tune or keep in step. Vectors are unit length,
 * so the dot product is the cosine.
 *
 * A query allocates almost nothing (decision 023): notes are numbered densely, each row knows its
 * note's number, and the best score per note lands in a typed array kept between queries — a
 * Map entry and an object per passing row cost more than the dot products themselves.
 */
import { dotRows, type DotRows } from './dot-rows.js';

/** Notes best first, in parallel arrays: a query ranks thousands, and the page reads ten. */
export interface NoteRanking {
  ids: string[];
  /** The best chunk's cosine. */
  scores: Float32Array;
  chunkIds: Int32Array;
}

export class VectorMatrix {
  private readonly rowsStore: DotRows;
  /** Per row: its chunk id and its note's number. */
  private chunkIds: Int32Array;
  private rowNotes: Int32Array;
  private rows = 0;
  private readonly slotOf = new Map<number, number>();
  /** Note numbers: the id of each, its rows, numbers free for reuse. */
  private readonly noteNumber = new Map<string, number>();
  private noteNames: string[] = [];
  private noteRows: number[] = [];
  private readonly freeNumbers: number[] = [];
  /** Per note number, reused by every query: best score and its row. */
  private best = new Float32Array(0);
  private bestRow = new Int32Array(0);

  constructor(
    private readonly dim: number,
    options: { script?: boolean } = {},
  ) {
    this.rowsStore = dotRows(dim, 256, options);
    this.chunkIds = new Int32Array(256);
    this.rowNotes = new Int32Array(256);
  }

  get size(): number {
    return this.rows;
  }

  add(chunkId: number, noteId: string, vector: Float32Array): void {
    if (this.slotOf.has(chunkId)) this.delete(chunkId);
    const slot = this.rows;
    if (slot === this.chunkIds.length) this.grow();
    this.rowsStore.data.set(vector, slot * this.dim);
    this.chunkIds[slot] = chunkId;
    this.rowNotes[slot] = this.numberOf(noteId);
    this.slotOf.set(chunkId, slot);
    this.rows += 1;
  }

  /** Moves the last row into the freed slot, so the rows stay contiguous. */
  delete(chunkId: number): void {
    const slot = this.slotOf.get(chunkId);
    if (slot === undefined) return;
    this.release(this.rowNotes[slot]!);
    const last = this.rows - 1;
    if (slot !== last) {
      this.rowsStore.data.copyWithin(slot * this.dim, last * this.dim, (last + 1) * this.dim);
      this.rowNotes[slot] = this.rowNotes[last]!;
      this.chunkIds[slot] = this.chunkIds[last]!;
      this.slotOf.set(this.chunkIds[slot]!, slot);
    }
    this.rows = last;
    this.slotOf.delete(chunkId);
  }

  /** Notes whose best chunk reaches `minScore`, best first (ties by id). */
  rankNotes(query: Float32Array, minScore: number, accept?: (noteId: string) => boolean): NoteRanking {
    const { rowNotes } = this;
    if (this.best.length < this.noteNames.length) {
      this.best = new Float32Array(this.noteNames.length * 2);
      this.bestRow = new Int32Array(this.noteNames.length * 2);
    }
    const { best, bestRow } = this;
    const touched: number[] = [];
    const scores = this.rowsStore.dots(query, this.rows);
    for (let slot = 0; slot < scores.length; slot++) {
      const score = scores[slot]!;
      if (score < minScore) continue;
      const note = rowNotes[slot]!;
      // bestRow holds row + 1 for a note this query reached, 0 for one it has not (reset below).
      if (bestRow[note] === 0) {
        best[note] = score;
        bestRow[note] = slot + 1;
        touched.push(note);
      } else if (score > best[note]!) {
        best[note] = score;
        bestRow[note] = slot + 1;
      }
    }
    const names = this.noteNames;
    const kept = accept ? touched.filter((note) => accept(names[note]!)) : touched;
    const order = byScoreThenName(kept, best, names);
    const ranking: NoteRanking = {
      ids: new Array<string>(order.length),
      scores: new Float32Array(order.length),
      chunkIds: new Int32Array(order.length),
    };
    for (let i = 0; i < order.length; i++) {
      const note = order[i]!;
      ranking.ids[i] = names[note]!;
      ranking.scores[i] = best[note]!;
      ranking.chunkIds[i] = this.chunkIds[bestRow[note]! - 1]!;
    }
    for (const note of touched) bestRow[note] = 0;
    return ranking;
  }

  private numberOf(noteId: string): number {
    let n = this.noteNumber.get(noteId);
    if (n === undefined) {
      n = this.freeNumbers.pop() ?? this.noteNames.length;
      this.noteNumber.set(noteId, n);
      this.noteNames[n] = noteId;
      this.noteRows[n] = 0;
    }
    this.noteRows[n]! += 1;
    return n;
  }

  private release(n: number): void {
    this.noteRows[n]! -= 1;
    if (this.noteRows[n]! > 0) return;
    this.noteNumber.delete(this.noteNames[n]!);
    this.freeNumbers.push(n);
  }

  private grow(): void {
    const rows = this.chunkIds.length * 2;
    this.rowsStore.grow(rows);
    const chunkIds = new Int32Array(rows);
    chunkIds.set(this.chunkIds);
    this.chunkIds = chunkIds;
    const rowNotes = new Int32Array(rows);
    rowNotes.set(this.rowNotes);
    this.rowNotes = rowNotes;
  }
}

const POSITION_BITS = 2 ** 21;
const scoreBits = new Uint32Array(1);
const scoreFloat = new Float32Array(scoreBits.buffer);

/**
 * `notes` ordered by `best` descending, equal scores by name. Each note becomes one float64 key —
 * the score's bits, made to sort as unsigned integers, above its position — and the keys are
 * sorted natively: at the ~10,000 notes a broad query reaches, 2 ms against 4 ms for a comparator.
 */
function byScoreThenName(notes: readonly number[], best: Float32Array, names: readonly string[]): ArrayLike<number> {
  const byName = (x: number, y: number) => (names[x]! < names[y]! ? -1 : names[x]! > names[y]! ? 1 : 0);
  if (notes.length >= POSITION_BITS) return [...notes].sort((x, y) => best[y]! - best[x]! || byName(x, y));
  const keys = new Float64Array(notes.length);
  for (let i = 0; i < notes.length; i++) {
    scoreFloat[0] = best[notes[i]!]!;
    const bits = scoreBits[0]!;
    const ascending = bits & 0x80000000 ? ~bits >>> 0 : (bits | 0x80000000) >>> 0;
    keys[i] = (0xffffffff - ascending) * POSITION_BITS + i;
  }
  keys.sort();
  const order = new Int32Array(notes.length);
  for (let i = 0; i < keys.length; i++) order[i] = notes[keys[i]! % POSITION_BITS]!;
  // Equal scores (the same passage in two notes) sit side by side: order each run by name.
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && best[order[end]!] === best[order[start]!]) end++;
    if (end - start > 1) order.subarray(start, end).sort(byName);
    start = end;
  }
  return order;
}
