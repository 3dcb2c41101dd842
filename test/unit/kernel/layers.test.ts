/**
 * The layers of decision 015, checked on the source: kernel at the bottom; toolkit on it; plugins
 * and backends side by side on both; profiles above; app (CLI, MCP server, library entry) on top.
 * A plugin meets another plugin only through the other's service tokens, so the only module of
 * another plugin it may import is one that defines a token; a backend imports no plugin and no
 * other backend. Imports of packages and of Node's modules are not layers and are not checked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/cli.js';

const LAYERS = ['kernel', 'toolkit', 'plugins', 'backends', 'profiles', 'app'] as const;
type Layer = (typeof LAYERS)[number];

/** What each layer may import besides itself. */
const BELOW: Record<Layer, readonly Layer[]> = {
  kernel: [],
  toolkit: ['kernel'],
  plugins: ['kernel', 'toolkit'],
  backends: ['kernel', 'toolkit'],
  profiles: ['kernel', 'toolkit', 'plugins', 'backends'],
  app: ['kernel', 'toolkit', 'plugins', 'backends', 'profiles'],
};

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(full);
    return /\.(ts|cts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Repo-relative target of each relative import in `file`, with `.js` read as the `.ts` source. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const targets: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2];
    if (!spec?.startsWith('.')) continue;
    const resolved = path.relative(REPO_ROOT, path.resolve(path.dirname(file), spec)).replace(/\.(c|m)?js$/, '.$1ts');
    targets.push(resolved);
  }
  return targets;
}

const definesToken = (file: string): boolean => /\btoken<[^>]*>\(/.test(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'));

function violations(): string[] {
  const found: string[] = [];
  for (const layer of LAYERS) {
    for (const file of sources(path.join(REPO_ROOT, layer))) {
      const from = path.relative(REPO_ROOT, file);
      const [, unit] = from.split(path.sep);
      for (const target of importsOf(file)) {
        const [targetLayer, targetUnit] = target.split(path.sep) as [string, string];
        if (targetLayer === layer) {
          if (layer === 'backends' && targetUnit !== unit) found.push(`${from} → ${target}: a backend imports another backend`);
          if (layer === 'plugins' && targetUnit !== unit && !definesToken(target)) {
            found.push(`${from} → ${target}: a plugin reaches another plugin's code, not a service token module`);
          }
          continue;
        }
        if (!(LAYERS as readonly string[]).includes(targetLayer)) continue;
        if (!BELOW[layer].includes(targetLayer as Layer)) found.push(`${from} → ${target}: ${layer} may not import ${targetLayer}`);
      }
    }
  }
  return found;
}

describe('layers', () => {
  it('every import points down or sideways as decision 015 draws it', () => {
    expect(violations()).toEqual([]);
  });

  it('the check sees the imports it is meant to refuse', () => {
    // The rule table itself: a file of each layer may reach only the layers listed below it.
    expect(BELOW.kernel).toEqual([]);
    expect(BELOW.backends).not.toContain('plugins');
    expect(BELOW.plugins).not.toContain('backends');
    expect(importsOf(path.join(REPO_ROOT, 'plugins/migration/steps/agent-memory-v2/v1-format.ts'))).toContain(
      path.join('toolkit', 'agent-memory', 'entry-format.ts'),
    );
    expect(definesToken(path.join('plugins', 'links', 'service.ts'))).toBe(true);
    expect(definesToken(path.join('plugins', 'schema', 'json-fields.ts'))).toBe(false);
  });
});
