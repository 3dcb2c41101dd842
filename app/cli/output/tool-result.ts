/**
 * A tool's answer as a person reads it (`notekernel call`, `delete …`): a note as its header
 * fields then its text, a list of records as a table with a count, other answers as aligned
 * `key: value` lines with texts and nested parts below them. Tools know nothing of this: it
 * reads the shape.
 */
import yaml from 'js-yaml';
import type { Style } from './ansi-style.js';
import { fields, oneLine, plural, table } from './table.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Record_ = { [key: string]: Json };

/** Columns worth showing for a record, in this order, when present. */
const PREFERRED = [
  'id',
  'identifier',
  'name',
  'title',
  'type',
  'score',
  'noteCount',
  'count',
  'path',
  'filename',
  'snippet',
  'description',
  'message',
];
const MAX_COLUMNS = 5;

export function renderToolResult(value: unknown, style: Style): string {
  return render(value as Json, style);
}

function render(value: Json, style: Style): string {
  if (value === null || value === undefined) return style.dim('(nothing)');
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value))
    return value.length
      ? `${renderList(value, style)}\n${style.dim(plural(value.length, 'item'))}`
      : renderList(value, style);
  if (isNote(value)) return renderNote(value, style);
  return renderObject(value, style);
}

function isRecord(value: Json): value is Record_ {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: Json): value is string | number | boolean | null {
  return value === null || typeof value !== 'object';
}

function isNote(value: Record_): boolean {
  return typeof value.content === 'string' && (typeof value.title === 'string' || typeof value.id === 'string');
}

function renderNote(note: Record_, style: Style): string {
  const header = Object.entries(note)
    .filter(([key, v]) => key !== 'content' && key !== 'title' && isScalar(v))
    .map(([key, v]) => [key, String(v)] as const);
  const nested = Object.fromEntries(Object.entries(note).filter(([key, v]) => key !== 'content' && !isScalar(v)));
  const parts = [style.bold(String(note.title ?? note.id)), fields(header, style)];
  if (Object.keys(nested).length) parts.push(dumpYaml(nested).trimEnd());
  return `${parts.join('\n')}\n\n${String(note.content).trimEnd()}`;
}

function renderList(items: Json[], style: Style, indent = ''): string {
  if (!items.length) return `${indent}${style.dim('(none)')}`;
  if (items.every(isRecord)) {
    const columns = columnsOf(items as Record_[]);
    if (columns.length) {
      const rows = (items as Record_[]).map((item) => columns.map((c) => cell(item[c])));
      return table(columns, rows, style, indent);
    }
  }
  if (items.every(isScalar)) return items.map((item) => `${indent}- ${String(item)}`).join('\n');
  return indentText(dumpYaml(items).trimEnd(), indent);
}

function columnsOf(items: Record_[]): string[] {
  const scalarKeys = new Set<string>();
  for (const item of items)
    for (const [key, v] of Object.entries(item)) if (isScalar(v) && v !== null) scalarKeys.add(key);
  const preferred = PREFERRED.filter((key) => scalarKeys.has(key));
  const rest = [...scalarKeys].filter((key) => !PREFERRED.includes(key));
  return [...preferred, ...rest].slice(0, MAX_COLUMNS);
}

function cell(value: Json | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(3);
  return oneLine(String(value));
}

/** Scalars first, lined up; then each list or nested part under its key. */
function renderObject(value: Record_, style: Style): string {
  const scalars: Array<readonly [string, string]> = [];
  const blocks: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string' && v.includes('\n')) blocks.push(`${style.bold(key)}\n${indentText(v.trimEnd(), '  ')}`);
    else if (isScalar(v)) scalars.push([key, String(v)]);
    else if (Array.isArray(v))
      blocks.push(`${style.bold(key)} ${style.dim(`(${plural(v.length, 'item')})`)}\n${renderList(v, style, '  ')}`);
    else blocks.push(`${style.bold(key)}\n${indentText(dumpYaml(v).trimEnd(), '  ')}`);
  }
  if (scalars.length) blocks.unshift(fields(scalars, style));
  return blocks.join('\n\n') || style.dim('(empty)');
}

function dumpYaml(value: Json): string {
  return yaml.dump(value, { lineWidth: 120, noRefs: true, skipInvalid: true });
}

function indentText(text: string, indent: string): string {
  return indent
    ? text
        .split('\n')
        .map((line) => (line ? indent + line : line))
        .join('\n')
    : text;
}
