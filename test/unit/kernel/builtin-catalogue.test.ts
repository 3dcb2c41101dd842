/**
 * The lazy built-in catalogue the kernel loads is the one list; the eager one other callers import
 * (profiles/catalogue.ts) is generated from it by scripts/catalogue.mjs and must hold the same things.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinLazyCatalogue } from '../../../profiles/builtins.js';
import { builtinCatalogue } from '../../../profiles/catalogue.js';
import { REPO_ROOT } from '../../support/cli.js';

const SCRIPT = path.join('scripts', 'catalogue.mjs');

describe('built-in catalogue', () => {
  it('profiles/catalogue.ts is what scripts/catalogue.mjs generates from profiles/builtins.ts', () => {
    expect(() => execFileSync(process.execPath, [SCRIPT, '--check'], { cwd: REPO_ROOT, stdio: 'pipe' })).not.toThrow();
  });

  it('the check fails when an entry is added to builtins.ts and catalogue.ts is not generated again', () => {
    const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'nk-catalogue-'));
    try {
      fs.mkdirSync(path.join(tree, 'scripts'));
      fs.mkdirSync(path.join(tree, 'profiles'));
      fs.copyFileSync(path.join(REPO_ROOT, SCRIPT), path.join(tree, SCRIPT));
      fs.copyFileSync(path.join(REPO_ROOT, 'profiles', 'catalogue.ts'), path.join(tree, 'profiles', 'catalogue.ts'));
      const lazy = fs.readFileSync(path.join(REPO_ROOT, 'profiles', 'builtins.ts'), 'utf8');
      const added = lazy.replace(
        /\n {2}plugins: \{\n/,
        "\n  plugins: {\n    extra: async () => (await import('../plugins/extra/index.js')).extraPlugin,\n",
      );
      expect(added).not.toBe(lazy);
      fs.writeFileSync(path.join(tree, 'profiles', 'builtins.ts'), added);
      const check = spawnSync(process.execPath, [SCRIPT, '--check'], { cwd: tree, encoding: 'utf8' });
      expect(check.status).toBe(1);
      expect(check.stderr).toContain('run `node scripts/catalogue.mjs`');
      expect(spawnSync(process.execPath, [SCRIPT], { cwd: tree }).status).toBe(0);
      expect(fs.readFileSync(path.join(tree, 'profiles', 'catalogue.ts'), 'utf8')).toMatch(
        /^import \{ extraPlugin \} from '..\/plugins\/extra\/index.js';$/m,
      );
    } finally {
      fs.rmSync(tree, { recursive: true, force: true });
    }
  });

  it('has the same profiles, plugin ids and backend ids, lazily and eagerly', () => {
    expect(builtinLazyCatalogue.profiles).toEqual(builtinCatalogue.profiles);
    expect(Object.keys(builtinLazyCatalogue.plugins)).toEqual(builtinCatalogue.plugins.map((p) => p.id));
    expect(Object.keys(builtinLazyCatalogue.backends)).toEqual(builtinCatalogue.backends.map((b) => b.id));
  });

  it('loads, under each id, the very definition the eager catalogue holds', async () => {
    for (const [id, load] of Object.entries(builtinLazyCatalogue.plugins))
      expect(await load()).toBe(builtinCatalogue.plugins.find((p) => p.id === id));
    for (const [id, load] of Object.entries(builtinLazyCatalogue.backends))
      expect(await load()).toBe(builtinCatalogue.backends.find((b) => b.id === id));
  });
});
