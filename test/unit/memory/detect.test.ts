/**
 * What the CLI takes for an agent-memory root when no vault is given (profiles/agent-memory/
 * detect.ts): an entry at the top, in archive/, in orgs/{org}/ (and its archive/), or the
 * backend's history cache; not a folder of ordinary markdown, and never against the user's
 * profile or a config file that names a vault.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { looksLikeMemoryRoot } from '../../../profiles/agent-memory/detect.js';
import { memoryFolderHere } from '../../../app/cli/memory-folder.js';
import { tempDir } from '../../support/temp.js';

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await tempDir('nk-memory-detect-');
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  }
  return dir;
}

describe('looksLikeMemoryRoot', () => {
  it.each([
    [
      "an entry at the top (the seed's example name)",
      { 'igor-fullstack-developer id__Ab3xYz.md': '# Igor\n', 'README.md': '# My memory\n' },
    ],
    ['an archived entry only', { 'archive/old-idea id__Old111.md': '# Old idea\n' }],
    ["an org's entry only", { 'orgs/axiom/console-app id__Kf9mNp.md': '# Console app\n' }],
    ["an org's archived entry only", { 'orgs/axiom/archive/gone id__Gone11.md': '# Gone\n' }],
    ['the history cache of a served root', { '.notekernel/git-timestamps.json': '{}' }],
  ])('yes: %s', async (_name, files) => {
    expect(await looksLikeMemoryRoot(await folder(files))).toBe(true);
  });

  it.each([
    ['ordinary markdown', { 'README.md': '# Project\n', 'notes/plan.md': 'a plan\n' }],
    ['a flint vault', { '.flint-note/config.yml': 'x: 1\n', 'general/note.md': '# Note\n' }],
    ['an id deeper than the layout reads', { 'docs/deep/entry id__Deep11.md': '# Deep\n' }],
    ['an id in a folder name only', { 'id__Ab3xYz.md/readme.txt': 'x' }],
    ['an empty folder', {}],
  ])('no: %s', async (_name, files) => {
    expect(await looksLikeMemoryRoot(await folder(files))).toBe(false);
  });

  it('no: a folder that does not exist', async () => {
    expect(await looksLikeMemoryRoot(path.join(await folder({}), 'missing'))).toBe(false);
  });
});

describe('memoryFolderHere', () => {
  const entry = { 'igor-fullstack-developer id__Ab3xYz.md': '# Igor\n' };

  it('a memory root with no profile asked for, or agent-memory asked for, is opened as one', async () => {
    const dir = await folder(entry);
    expect(await memoryFolderHere(dir)).toBe(dir);
    expect(await memoryFolderHere(dir, 'agent-memory')).toBe(dir);
  });

  it('another profile asked for, or a config file that names a vault or another profile, wins', async () => {
    expect(await memoryFolderHere(await folder(entry), 'flint')).toBeUndefined();
    expect(
      await memoryFolderHere(await folder({ ...entry, 'notekernel.config.json': '{"vault": "elsewhere"}' })),
    ).toBeUndefined();
    expect(
      await memoryFolderHere(await folder({ ...entry, 'notekernel.config.json': '{"profile": "flint"}' })),
    ).toBeUndefined();
    const own = await folder({ ...entry, 'notekernel.config.json': '{"profile": "agent-memory"}' });
    expect(await memoryFolderHere(own)).toBe(own);
  });

  it('a folder that is no memory root is left to the registry', async () => {
    expect(await memoryFolderHere(await folder({ 'README.md': '# x\n' }))).toBeUndefined();
  });
});
