/**
 * Every chunk vector of a vault in one contiguous Float32Array, scanned in full per query. At
 * 10,000 chunks × 512-d that is 20 MB and a few milliseconds (decision 016): no approximate
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
    const best = new Map<string, NoteSimilarity>();
    const { data, dim } = this;
    for (let slot = 0; slot < this.chunkIds.length; slot++) {
      let dot = 0;
      const base = slot * dim;
      for (let i = 0; i < dim; i++) dot += data[base + i]! * query[i]!;
      if (dot < minScore) continue;
      const noteId = this.noteIds[slot]!;
      const seen = best.get(noteId);
      if (!seen || dot > seen.score) best.set(noteId, { noteId, score: dot, chunkId: this.chunkIds[slot]! });
    }
    return [...best.values()].filter((s) => accept(s.noteId)).sort((a, b) => b.score - a.score || (a.noteId < b.noteId ? -1 : 1));
  }
}
