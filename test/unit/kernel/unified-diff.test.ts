/** The dry runs' unified diff prints what `diff -U3` prints (hunks only), checked against diff itself. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../toolkit/plans/unified-diff.js';

function gnuDiff(before: string, after: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nk-diff-'));
  try {
    fs.writeFileSync(path.join(dir, 'a'), before);
    fs.writeFileSync(path.join(dir, 'b'), after);
    let out = '';
    try {
      execFileSync('diff', ['-U3', 'a', 'b'], { cwd: dir, encoding: 'utf8' });
    } catch (err) {
      out = (err as { stdout: string }).stdout;
    }
    return out.split('\n').slice(2).join('\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const lines = (n: number, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i}\n`).join('');

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n')).toBe('');
  });

  const cases: Array<[string, string, string]> = [
    ['one line changed in the middle', lines(20), lines(20).replace('line 10\n', 'line ten\n')],
    ['two distant changes: two hunks', lines(40), lines(40).replace('line 3\n', 'x\n').replace('line 30\n', 'y\n')],
    ['two close changes: one hunk', lines(40), lines(40).replace('line 10\n', 'x\n').replace('line 15\n', 'y\n')],
    ['lines added at the end', lines(5), `${lines(5)}more\nand more\n`],
    ['lines removed at the start', lines(8), lines(8).split('\n').slice(2).join('\n')],
    ['from nothing', '', 'new\ntext\n'],
    ['to nothing', 'old\ntext\n', ''],
    [
      'links rewritten on several lines',
      'See [[Hub]].\nplain\nAnd [[Hub|the hub]].\n',
      'See [[Central Hub]].\nplain\nAnd [[Central Hub|the hub]].\n',
    ],
  ];
  for (const [name, before, after] of cases) {
    it(name, () => {
      expect(unifiedDiff(before, after)).toBe(gnuDiff(before, after));
    });
  }
});
