/** The CLI's readable forms and the log formatter, on fixed inputs. */
import { describe, expect, it } from 'vitest';
import { renderToolResult } from '../../../app/cli/output/tool-result.js';
import { renderIndex } from '../../../app/cli/output/reports.js';
import { colorEnabled, styleFor } from '../../../app/cli/output/ansi-style.js';
import { formatLogLine } from '../../../app/logging/pretty-log.js';
import { usePrettyLogs } from '../../../app/logging/logger.js';
import { describeSkipped, groupSkipped } from '../../../toolkit/files/skip-summary.js';

const plain = styleFor({ isTTY: false }, {});

describe('colour', () => {
  it('on a terminal only; NO_COLOR wins over everything, FORCE_COLOR turns it on elsewhere', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: 'x' })).toBe(false);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '0' })).toBe(false);
  });
});

describe('log lines', () => {
  it('a pino record becomes time, level, message and its fields', () => {
    const line = JSON.stringify({
      level: 40,
      time: Date.UTC(2026, 0, 1, 12, 0, 0),
      pid: 1,
      hostname: 'h',
      name: 'notekernel',
      msg: 'file skipped',
      path: 'a b.md',
      count: 2,
    });
    const out = formatLogLine(`${line}\n`, plain);
    expect(out).toMatch(/^\d\d:\d\d:\d\d WARN {2}file skipped {2}path="a b\.md" count=2\n$/);
    expect(out).not.toContain('hostname');
  });

  it('an error record at error level keeps its stack on the following lines', () => {
    const line = JSON.stringify({
      level: 50,
      time: 0,
      msg: 'boom',
      err: { message: 'bad', stack: 'Error: bad\n    at x' },
    });
    expect(formatLogLine(line, plain)).toMatch(/ERROR boom {2}err="bad"\nError: bad\n {4}at x\n$/);
  });

  it('a line that is not JSON passes through', () => {
    expect(formatLogLine('plain text', plain)).toBe('plain text\n');
  });

  it('readable on a terminal, JSON when piped, into a file, or asked for', () => {
    expect(usePrettyLogs(undefined, undefined, { isTTY: true })).toBe(true);
    expect(usePrettyLogs(undefined, undefined, { isTTY: false })).toBe(false);
    expect(usePrettyLogs('json', undefined, { isTTY: true })).toBe(false);
    expect(usePrettyLogs('pretty', undefined, { isTTY: false })).toBe(true);
    expect(usePrettyLogs(undefined, 'x.log', { isTTY: true })).toBe(false);
    expect(usePrettyLogs('pretty', 'x.log', { isTTY: false })).toBe(true);
  });
});

describe('tool results', () => {
  it('records become a table with the useful columns first', () => {
    const out = renderToolResult(
      [
        { snippet: 'x', id: 'a.md', title: 'A', extra: { nested: true } },
        { id: 'bb.md', title: 'B', snippet: 'y\nz' },
      ],
      plain,
    );
    expect(out.split('\n')).toEqual(['id     title  snippet', 'a.md   A      x', 'bb.md  B      y z', '2 items']);
  });

  it('an object: aligned scalars, lists as indented tables, the rest as YAML', () => {
    const out = renderToolResult({ total: 2, has_more: false, results: [{ id: 'a' }], meta: { k: 'v' } }, plain);
    expect(out).toBe('total:    2\nhas_more: false\n\nresults (1 item)\n  id\n  a\n\nmeta\n  k: v');
  });

  it('a string is printed as is, nothing as (nothing)', () => {
    expect(renderToolResult('done', plain)).toBe('done');
    expect(renderToolResult(null, plain)).toBe('(nothing)');
    expect(renderToolResult([], plain)).toBe('(none)');
  });
});

describe('skipped files', () => {
  const skipped = [
    { path: 'A.md', reason: 'at the root' },
    { path: 'B.md', reason: 'at the root' },
    { path: 'C.md', reason: 'at the root' },
    { path: 'x/y/D.md', reason: 'nested' },
  ];

  it('grouped by reason, most first, with a few examples', () => {
    expect(groupSkipped(skipped, 2)).toEqual([
      { reason: 'at the root', count: 3, examples: ['A.md', 'B.md'] },
      { reason: 'nested', count: 1, examples: ['x/y/D.md'] },
    ]);
    expect(describeSkipped(skipped)).toBe(
      '4 files not read as notes: 3 at the root (e.g. A.md, B.md); 1 nested (e.g. x/y/D.md)',
    );
  });

  it('index output: counts, then each reason with examples and how many more', () => {
    const out = renderIndex({ scanned: 2, indexed: 1, removed: 0, skipped, ms: 5 }, plain);
    expect(out).toContain('  skipped:    4');
    expect(out).toContain(
      '4 files not read as notes:\n  3 at the root\n      A.md\n      B.md\n      C.md\n  1 nested\n      x/y/D.md',
    );
  });
});

describe('tool results with texts', () => {
  it('a multi-line string goes below its key, whole, after the one-line fields', () => {
    const out = renderToolResult({ message: 'Saved!\n\nLocation: x', status: 'saved' }, plain);
    expect(out).toBe('status: saved\n\nmessage\n  Saved!\n\n  Location: x');
  });
});
