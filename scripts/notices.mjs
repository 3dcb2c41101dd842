#!/usr/bin/env node
// Writes NOTICES.md: every package the installed notekernel runs on (package-lock.json, not dev),
// with its version and license, plus the notices seed 003 asks for. `node scripts/notices.mjs`
// after a dependency change; test/unit/notices.test.ts fails while the file is out of date.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function notices() {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const rows = new Map();
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (!where || entry.dev || entry.devOptional) continue;
    const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    rows.set(`${name}@${entry.version}`, `| ${name} | ${entry.version} | ${entry.license ?? 'see the package'} |`);
  }
  return [
    '# Notices',
    '',
    'notekernel is MIT-licensed (LICENSE). It runs on the packages below, each under its own license;',
    'their license texts ship inside each package in `node_modules`.',
    '',
    'The notarium profile talks to Simplenote through Simperium with the app id and public API key',
    "of Simplenote's own clients (seed 003 §5; overridable with SIMPERIUM_APP_ID / SIMPERIUM_API_KEY).",
    'notekernel is not affiliated with or endorsed by Automattic, Simplenote, Obsidian or flint-note.',
    '',
    '| package | version | license |',
    '|---|---|---|',
    ...[...rows.keys()].sort().map((key) => rows.get(key)),
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(path.join(root, 'NOTICES.md'), notices());
  console.log('NOTICES.md written');
}
