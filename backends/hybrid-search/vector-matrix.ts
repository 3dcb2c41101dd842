/**
 * Every chunk vector of a vault in one contiguous Float32Array, scanned in full per query. At
 * 10,000 chunks × 512-d that is 20 MB and a few milliseconds (decision 018): no approximate
 * index to build, tune or keep in step. Vectors are unit length, so the dot product is the cosine.
 */
export interface NoteSimilarity {
  noteId: string;
  /** The best chunk's cosine. */
  score: number;
  chunkId: number;
}

export class VectorMatrix {
  private data: Float32Array;
  private noteIds: string[] = [];
  private chunkIds: number[] = [];
  private readonly slotOf = new Map<number, number>();

  constructor(private readonly dim: number) {
    this.data = new Float32Array(dim * 256);
  }

  get size(): number {
    return this.chunkIds.length;
  }

  add(chunkId: number, noteId: string, vector: Float32Array): void {
    if (this.slotOf.has(chunkId)) this.delete(chunkId);
    const slot = this.chunkIds.length;
    if ((slot + 1) * this.dim > this.data.length) {
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data.set(vector, slot * this.dim);
    this.noteIds.push(noteId);
    this.chunkIds.push(chunkId);
    this.slotOf.set(chunkId, slot);
  }

  /** Moves the last row into the freed slot, so the rows stay contiguous. */
  delete(chunkId: number): void {
    const slot = this.slotOf.get(chunkId);
    if (slot === undefined) return;
    const last = this.chunkIds.length - 1;
    if (slot !== last) {
      this.data.copyWithin(slot * this.dim, last * this.dim, (last + 1) * this.dim);
      this.noteIds[slot] = this.noteIds[last]!;
      this.chunkIds[slot] = this.chunkIds[last]!;
      this.slotOf.set(this.chunkIds[slot]!, slot);
    }
    this.noteIds.pop();
    this.chunkIds.pop();
    this.slotOf.delete(chunkId);
  }

  /** Notes whose best chunk reaches `minScore`, best first (ties by id). */
  rankNotes(query: Float32Array, minScore: number, accept: (noteId: string) => boolean = () => true): NoteSimilarity[] {
    const scores = this.dots(query);
    const best = new Map<string, NoteSimilarity>();
    for (let slot = 0; slot < scores.length; slot++) {
      const score = scores[slot]!;
      if (score < minScore) continue;
      const noteId = this.noteIds[slot]!;
      const seen = best.get(noteId);
      if (!seen || score > seen.score) best.set(noteId, { noteId, score, chunkId: this.chunkIds[slot]! });
    }
    return [...best.values()].filter((s) => accept(s.noteId)).sort((a, b) => b.score - a.score || (a.noteId < b.noteId ? -1 : 1));
  }

  /** Every row's dot product with `query`: one tight loop over the matrix, four sums at a time. */
  private dots(query: Float32Array): Float32Array {
    const { data, dim } = this;
    const scores = new Float32Array(this.chunkIds.length);
    for (let slot = 0, base = 0; slot < scores.length; slot++, base += dim) {
      let a = 0;
      let b = 0;
      let c = 0;
      let d = 0;
      let i = 0;
      for (; i + 3 < dim; i += 4) {
        a += data[base + i]! * query[i]!;
        b += data[base + i + 1]! * query[i + 1]!;
        c += data[base + i + 2]! * query[i + 2]!;
        d += data[base + i + 3]! * query[i + 3]!;
      }
      for (; i < dim; i++) a += data[base + i]! * query[i]!;
      scores[slot] = a + b + c + d;
    }
    return scores;
  }
}
