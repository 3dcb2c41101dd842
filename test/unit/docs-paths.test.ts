import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Decisions and READMEs point readers at files by path; a file moved or removed without its
// mentions leaves a reader looking for code that is elsewhere (decisions 001, 016, 018 and 025
// did, issue 29). Every source path the docs name must exist.
const FOLDERS = 'kernel|toolkit|plugins|backends|profiles|app|testing|test|examples|scripts';
const SOURCE_PATH = new RegExp(`(?<![\\w./-])((?:${FOLDERS})/[\\w./-]+\\.(?:ts|cts|mjs|json|md|yaml))`, 'g');

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const where = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(where);
    return entry.name.endsWith('.md') ? [where] : [];
  });
}

function readmes(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(dir, entry.name, 'README.md'))
    .filter((file) => fs.existsSync(file));
}

describe('paths named in the docs', () => {
  it('exist in the repository', () => {
    const docs = [
      'README.md',
      ...markdownFiles('docs'),
      ...readmes('profiles'),
      ...readmes('backends'),
      ...readmes('examples'),
    ];
    const missing: string[] = [];
    let named = 0;
    for (const doc of docs) {
      fs.readFileSync(doc, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const [, cited] of line.matchAll(SOURCE_PATH)) {
            named += 1;
            if (!fs.existsSync(cited!)) missing.push(`${doc}:${index + 1} names ${cited}`);
          }
        });
    }
    expect(named).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});
