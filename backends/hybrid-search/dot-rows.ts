/**
 * The vector matrix's rows and its one hot loop: every row's dot product with a query. The rows
 * live in WebAssembly memory, and a WebAssembly function of 142 bytes multiplies four floats at a time
 * (128-bit SIMD, in Node since 16.4): at 13k × 512-d 6–10× the JavaScript loop's speed, and
 * ~2× simsimd's or usearch's exact scan (decision 032, `test/bench/vector-scan.ts`). Where
 * WebAssembly SIMD is missing the same rows are scanned in JavaScript.
 *
 * Memory layout: the query (dim floats), then the rows (capacity × dim), then one score per row.
 * Growing keeps the rows where they are; the scores are scratch and simply move.
 */

/** `dots(q, data, rows, dim, out)`: out[r] = Σ data[r·dim + i] · q[i]; byte offsets, dim a multiple of 4. */
// prettier-ignore
const DOTS_WASM = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00,
  // type: (i32 × 5) → ()
  0x01,
  0x09,
  0x01,
  0x60,
  0x05,
  0x7f,
  0x7f,
  0x7f,
  0x7f,
  0x7f,
  0x00,
  // function 0 has type 0
  0x03,
  0x02,
  0x01,
  0x00,
  // memory: 1 page at least
  0x05,
  0x03,
  0x01,
  0x00,
  0x01,
  // exports: "memory", "dots"
  0x07,
  0x11,
  0x02,
  0x06,
  0x6d,
  0x65,
  0x6d,
  0x6f,
  0x72,
  0x79,
  0x02,
  0x00,
  0x04,
  0x64,
  0x6f,
  0x74,
  0x73,
  0x00,
  0x00,
  // code
  0x0a,
  0x91,
  0x01,
  0x01,
  0x8e,
  0x01,
  0x02,
  0x02,
  0x7f,
  0x01,
  0x7b, // locals: 5 i, 6 row bytes (i32); 7 acc (v128)
  0x20,
  0x03,
  0x41,
  0x02,
  0x74,
  0x21,
  0x06, // rowBytes = dim << 2
  0x02,
  0x40, // block
  0x20,
  0x02,
  0x45,
  0x0d,
  0x00, // no rows: done
  0x03,
  0x40, // loop over rows
  0xfd,
  0x0c,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0x21,
  0x07, // acc = 0
  0x41,
  0x00,
  0x21,
  0x05, // i = 0
  0x03,
  0x40, // loop over the row, 4 floats a step
  0x20,
  0x07,
  0x20,
  0x01,
  0x20,
  0x05,
  0x6a,
  0xfd,
  0x00,
  0x00,
  0x00, // v128.load data + i
  0x20,
  0x00,
  0x20,
  0x05,
  0x6a,
  0xfd,
  0x00,
  0x00,
  0x00, // v128.load q + i
  0xfd,
  0xe6,
  0x01, // f32x4.mul
  0xfd,
  0xe4,
  0x01, // f32x4.add
  0x21,
  0x07,
  0x20,
  0x05,
  0x41,
  0x10,
  0x6a,
  0x22,
  0x05, // i += 16
  0x20,
  0x06,
  0x49,
  0x0d,
  0x00, // while i < rowBytes
  0x0b,
  0x20,
  0x04, // out
  0x20,
  0x07,
  0xfd,
  0x1f,
  0x00,
  0x20,
  0x07,
  0xfd,
  0x1f,
  0x01,
  0x92,
  0x20,
  0x07,
  0xfd,
  0x1f,
  0x02,
  0x92,
  0x20,
  0x07,
  0xfd,
  0x1f,
  0x03,
  0x92,
  0x38,
  0x02,
  0x00, // f32.store
  0x20,
  0x04,
  0x41,
  0x04,
  0x6a,
  0x21,
  0x04, // out += 4
  0x20,
  0x01,
  0x20,
  0x06,
  0x6a,
  0x21,
  0x01, // data += rowBytes
  0x20,
  0x02,
  0x41,
  0x01,
  0x6b,
  0x22,
  0x02,
  0x0d,
  0x00, // while --rows
  0x0b,
  0x0b,
  0x0b,
]);

const PAGE = 65_536;

/** The little of the WebAssembly API used here (the project's TypeScript libs do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

export interface DotRows {
  /** The rows, `capacity × dim` floats; a new view after `grow`. */
  readonly data: Float32Array;
  readonly capacity: number;
  grow(capacity: number): void;
  /** Dot products of the first `rows` rows with `query`: a view valid until the next call. */
  dots(query: Float32Array, rows: number): Float32Array;
}

/** `script: true` takes the JavaScript scan even where WebAssembly SIMD runs (the bench's baseline). */
export function dotRows(dim: number, capacity: number, { script = false } = {}): DotRows {
  const simd = !script && dim % 4 === 0 && wasm !== undefined && wasm.validate(DOTS_WASM);
  return simd ? new SimdRows(dim, capacity) : new ScriptRows(dim, capacity);
}

class SimdRows implements DotRows {
  data!: Float32Array;
  capacity = 0;
  private readonly memory: WasmMemory;
  private readonly run: (q: number, data: number, rows: number, dim: number, out: number) => void;

  constructor(
    private readonly dim: number,
    capacity: number,
  ) {
    const instance = new wasm!.Instance(new wasm!.Module(DOTS_WASM));
    this.memory = instance.exports.memory as WasmMemory;
    this.run = instance.exports.dots as SimdRows['run'];
    this.grow(capacity);
  }

  grow(capacity: number): void {
    const bytes = (this.dim + capacity * this.dim + capacity) * 4;
    const missing = bytes - this.memory.buffer.byteLength;
    if (missing > 0) this.memory.grow(Math.ceil(missing / PAGE));
    this.capacity = capacity;
    this.data = new Float32Array(this.memory.buffer, this.dim * 4, capacity * this.dim);
  }

  dots(query: Float32Array, rows: number): Float32Array {
    const { dim } = this;
    // A grow elsewhere detaches old views: take them from the current buffer.
    new Float32Array(this.memory.buffer, 0, dim).set(query);
    const out = (dim + this.capacity * dim) * 4;
    this.run(0, dim * 4, rows, dim, out);
    return new Float32Array(this.memory.buffer, out, rows);
  }
}

class ScriptRows implements DotRows {
  data: Float32Array;
  capacity: number;
  private scores = new Float32Array(0);

  constructor(
    private readonly dim: number,
    capacity: number,
  ) {
    this.capacity = capacity;
    this.data = new Float32Array(capacity * dim);
  }

  grow(capacity: number): void {
    const data = new Float32Array(capacity * this.dim);
    data.set(this.data);
    this.data = data;
    this.capacity = capacity;
  }

  dots(query: Float32Array, rows: number): Float32Array {
    const { data, dim } = this;
    if (this.scores.length < rows) this.scores = new Float32Array(this.capacity);
    const scores = this.scores;
    for (let slot = 0, base = 0; slot < rows; slot++, base += dim) {
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
    return scores.subarray(0, rows);
  }
}
