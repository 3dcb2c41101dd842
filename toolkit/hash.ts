import { createHash } from 'node:crypto';

/** `sha256:` + hex over the exact stored bytes, the format every read returns and every write checks. */
export function contentHash(data: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}
