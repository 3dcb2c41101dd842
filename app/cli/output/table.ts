/** Aligned columns for the CLI's readable output: header, rows, widths measured without colour codes. */
import { visibleLength, type Style } from './ansi-style.js';

export function table(
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  style: Style,
  indent = '',
): string {
  const widths = header.map((h, i) => Math.max(visibleLength(h), ...rows.map((row) => visibleLength(row[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    indent +
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - visibleLength(cell))))
      .join('  ')
      .trimEnd();
  return [style.dim(line(header)), ...rows.map(line)].join('\n');
}

/** `key: value` lines with the values lined up. */
export function fields(entries: ReadonlyArray<readonly [string, string]>, style: Style, indent = ''): string {
  const width = Math.max(0, ...entries.map(([key]) => key.length));
  return entries.map(([key, value]) => `${indent}${style.dim(`${key}:`.padEnd(width + 1))} ${value}`).join('\n');
}

/** One line of at most `max` characters: newlines folded, the rest cut with an ellipsis. */
export function oneLine(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
