/** Which files are read as notes: a hard link out of the vault is not; an atomic write's own momentary temp link is. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEMP_PREFIX } from '../../../toolkit/files/atomic-write.js';
import { isSkipped, readSmallFile } from '../../../toolkit/files/small-file.js';
import { removeDir, tempDir } from '../../support/temp.js';

describe('readSmallFile and hard links', () => {
  let vault: string;
  let outside: string;
  beforeEach(async () => {
    vault = await tempDir();
    outside = await tempDir();
  });
  afterEach(async () => {
    await removeDir(vault);
    await removeDir(outside);
  });

  it("reads a file whose second name is an atomic write's temp name beside it (another process retiring the old version)", async () => {
    const note = path.join(vault, 'note.md');
    fs.writeFileSync(note, '# Note\n');
    fs.linkSync(note, path.join(vault, `${TEMP_PREFIX}4242-abcdef-old`));
    const read = await readSmallFile(note);
    expect(isSkipped(read)).toBe(false);
    expect(read && !isSkipped(read) ? read.bytes.toString() : '').toBe('# Note\n');
  });

  it('skips a hard link to a file outside the vault, with or without a temp name beside it', async () => {
    const secret = path.join(outside, 'secret.txt');
    fs.writeFileSync(secret, 'secret');
    const note = path.join(vault, 'hard.md');
    fs.linkSync(secret, note);
    expect(isSkipped(await readSmallFile(note))).toBe(true);
    fs.linkSync(secret, path.join(vault, `${TEMP_PREFIX}planted`));
    expect(isSkipped(await readSmallFile(note))).toBe(true);
  });
});
