/**
 * One number standing for the whole set of (note id, size, mtime) the index holds, kept up to
 * date by every row change, so an unchanged vault is recognised at start-up by comparing it with
 * the same digest of the scanned files instead of reading 10,000 rows (decision 012).
 *
 * The digest is the XOR of a 53-bit hash per file: order-free, and a row change updates it
 * with the old and new hashes alone. A changed vault almost always changes it (a false match
 * is a 1-in-2^53 event per start); a digest that disagrees only costs the full comparison.
 */

const HIGH = 2 ** 32;

// The mtime's eight bytes, read as two 32-bit words: hashing its bits, not its decimal text
// (number-to-string conversion of 10,000 fractional mtimes was most of the hashing time).
const mtimeBits = new Float64Array(1);
const mtimeWords = new Uint32Array(mtimeBits.buffer);

/**
 * cyrb53 (public domain, bryc), a fast 53-bit hash with good dispersion, over the id's UTF-16
 * code units followed by the size and the mtime's bits as 32-bit words.
 */
export function fileStateHash(id: string, size: number, mtimeMs: number): number {
  mtimeBits[0] = mtimeMs;
  const tail = [size % HIGH, Math.floor(size / HIGH), mtimeWords[0] as number, mtimeWords[1] as number];
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < id.length + tail.length; i++) {
    const unit = i < id.length ? id.charCodeAt(i) : (tail[i - id.length] as number);
    h1 = Math.imul(h1 ^ unit, 2654435761);
    h2 = Math.imul(h2 ^ unit, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 2097152 * (h2 >>> 0) + (h1 >>> 0);
}

/** XOR of two 53-bit values (JavaScript's `^` keeps only 32 bits). */
export function xor53(a: number, b: number): number {
  const high = (Math.floor(a / HIGH) ^ Math.floor(b / HIGH)) >>> 0;
  const low = ((a % HIGH) ^ (b % HIGH)) >>> 0;
  return high * HIGH + low;
}
