/** Readable forms of the CLI's own results (init, index, tools): what a person checks at a glance. */
import type { RefreshReport } from '../../../kernel/backend.js';
import { groupSkipped } from '../../../toolkit/files/skip-summary.js';
import type { Style } from './ansi-style.js';
import { fields, oneLine, plural, table } from './table.js';

export function renderInit(result: { vault: string; profile: string; types: string[] }, style: Style): string {
  return [
    `${style.green('✓')} vault ready: ${style.bold(result.vault)}`,
    fields(
      [
        ['profile', result.profile],
        ['note types', result.types.length ? result.types.join(', ') : style.dim('(none: this profile has no types)')],
      ],
      style,
      '  ',
    ),
  ].join('\n');
}

export function renderIndex(
  report: RefreshReport & { vault?: string; vectors?: { embedded: number; ms: number } },
  style: Style,
): string {
  const lines = [
    `${style.green('✓')} index up to date${report.vault ? ` for ${style.bold(report.vault)}` : ''} in ${report.ms} ms`,
    fields(
      [
        ['notes seen', String(report.scanned)],
        ['re-read', String(report.indexed)],
        ['removed', String(report.removed)],
        ['skipped', report.skipped.length ? style.yellow(String(report.skipped.length)) : '0'],
        ...(report.vectors
          ? [['passages embedded', `${report.vectors.embedded} in ${report.vectors.ms} ms`] as [string, string]]
          : []),
      ],
      style,
      '  ',
    ),
  ];
  if (report.skipped.length) lines.push('', renderSkipped(report.skipped, style));
  return lines.join('\n');
}

/** Skipped files grouped by reason: a count, the reason, a few example paths. */
export function renderSkipped(skipped: RefreshReport['skipped'], style: Style, examples = 3): string {
  const lines = [style.yellow(`${plural(skipped.length, 'file')} not read as notes:`)];
  for (const group of groupSkipped(skipped, examples)) {
    lines.push(`  ${style.bold(String(group.count))} ${group.reason}`);
    for (const example of group.examples) lines.push(`      ${example}`);
    if (group.count > group.examples.length)
      lines.push(style.dim(`      … and ${group.count - group.examples.length} more (--json lists every one)`));
  }
  return lines.join('\n');
}

export function renderTools(tools: ReadonlyArray<{ name: string; description?: string }>, style: Style): string {
  const rows = tools.map((t) => [t.name, oneLine(t.description ?? '', 90)]);
  return `${table(['tool', 'description'], rows, style)}\n${style.dim(`${plural(tools.length, 'tool')} (--json prints their input schemas)`)}`;
}
