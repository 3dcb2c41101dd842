/**
 * The one frontmatter module: splits `---` fenced YAML from a markdown text and loads YAML with
 * bounds. Every reader of YAML that a vault's files (or an agent) can supply goes through
 * `loadYamlBounded`, so a hostile file cannot exhaust the process:
 *
 * - js-yaml resolves an alias to the same object, so loading an "alias bomb" (each level nine
 *   references to the one before) is cheap, but any walk of the result (our conversion, zod,
 *   JSON.stringify, the index) expands it exponentially: 500 bytes became gigabytes. The copy
 *   made here counts every value it visits and stops past `maxValues`.
 * - Depth: js-yaml refuses nesting past 100 levels on read, so a write must stay below that
 *   (`assertWritableDepth`), or the value is written and then silently lost.
 * - Size: frontmatter past `maxBytes` is not parsed at all.
 */
import yaml from 'js-yaml';
import { ValidationError } from '../../kernel/errors.js';
import type { Metadata, MetadataValue } from '../../kernel/note.js';

export interface YamlBounds {
  maxBytes: number;
  /** Values visited while materialising the document, aliases counted at every use. */
  maxValues: number;
  /** Nesting of mappings and sequences, the document's top level being 1. */
  maxDepth: number;
}

/**
 * Far above any hand-written frontmatter (measured: a large real note has under 200 values),
 * far below what hurts (100k values copy in ~10 ms). The depth stays under js-yaml's own 100.
 */
export const FRONTMATTER_BOUNDS: YamlBounds = { maxBytes: 1024 * 1024, maxValues: 100_000, maxDepth: 64 };

/** Why a YAML text is refused; `field` is the top-level key where the bound was crossed. */
export class YamlBoundError extends Error {
  constructor(
    readonly reason: string,
    readonly field: string | undefined,
  ) {
    super(field === undefined ? reason : `field "${field}": ${reason}`);
    this.name = 'YamlBoundError';
  }
}

// The closing fence is a line of its own: `---` ending some value's line does not close it.
const FRONTMATTER = /^---\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

export interface SplitMarkdown {
  /** The YAML between the fences, undefined when the text has no frontmatter. */
  yaml: string | undefined;
  /** What follows the closing fence, one blank separator line dropped. */
  body: string;
  /** Everything after the closing fence as written (no separator dropped). */
  rest: string;
}

export function splitFrontmatter(text: string): SplitMarkdown {
  const match = FRONTMATTER.exec(text);
  if (!match) return { yaml: undefined, body: text, rest: text };
  const rest = text.slice(match[0].length);
  return { yaml: match[1] ?? '', body: rest.replace(/^\r?\n/, ''), rest };
}

/**
 * Loads YAML (core schema: dates stay the strings they were written as) into a fresh tree of
 * plain values, within `bounds`. Throws YamlBoundError past a bound, js-yaml's error on bad YAML.
 * `json: true` lets a repeated key keep its last value instead of failing the whole text.
 */
export function loadYamlBounded(text: string, bounds: YamlBounds = FRONTMATTER_BOUNDS): MetadataValue {
  if (Buffer.byteLength(text, 'utf8') > bounds.maxBytes) {
    throw new YamlBoundError(`the YAML is larger than ${bounds.maxBytes} bytes`, undefined);
  }
  let data: unknown;
  try {
    data = yaml.load(text, { schema: yaml.CORE_SCHEMA, json: true });
  } catch (err) {
    // js-yaml's own bounds (nesting past 100, merge keys past 10,000) are bounds, not bad YAML.
    const message = (err as Error).message.split('\n')[0] ?? '';
    if (/exceeded max/.test(message)) throw new YamlBoundError(message.replace(/ \(\d+:\d+\)$/, ''), undefined);
    throw err;
  }
  const budget = { left: bounds.maxValues };
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const out: Metadata = {};
    for (const [key, value] of Object.entries(data as Record<string, unknown>))
      out[key] = copy(value, 2, key, budget, bounds);
    return out;
  }
  return copy(data, 1, undefined, budget, bounds);
}

function copy(
  value: unknown,
  depth: number,
  field: string | undefined,
  budget: { left: number },
  bounds: YamlBounds,
): MetadataValue {
  if (--budget.left < 0) {
    throw new YamlBoundError(
      `expands to more than ${bounds.maxValues} values (YAML aliases repeat what they name)`,
      field,
    );
  }
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value !== 'object') return String(value);
  if (depth > bounds.maxDepth) throw new YamlBoundError(`nests deeper than ${bounds.maxDepth} levels`, field);
  if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1, field, budget, bounds));
  const out: Metadata = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>))
    out[key] = copy(item, depth + 1, field, budget, bounds);
  return out;
}

/**
 * Refuses metadata the reader could not read back: nesting past `maxDepth` (js-yaml stops at
 * 100 and the note would lose all its metadata). Returns the first top-level key too deep.
 */
export function tooDeepField(metadata: Metadata, maxDepth = FRONTMATTER_BOUNDS.maxDepth): string | undefined {
  // The depth of the deepest mapping or sequence (a scalar adds none), as `copy` counts it.
  const depthOf = (value: unknown, depth: number): number => {
    if (value === null || typeof value !== 'object') return depth - 1;
    if (depth > maxDepth) return depth;
    let deepest = depth;
    for (const item of Object.values(value as object)) deepest = Math.max(deepest, depthOf(item, depth + 1));
    return deepest;
  };
  for (const [key, value] of Object.entries(metadata)) if (depthOf(value, 2) > maxDepth) return key;
  return undefined;
}

/**
 * For raw writes of a markdown file (a card, a template's output): refuses frontmatter past a
 * bound, naming the field, so what is written can be read back and cannot exhaust a reader.
 * Frontmatter that is merely invalid YAML is let through (the reader tolerates it).
 */
export function assertReadableFrontmatter(text: string, path: string): void {
  const { yaml: yamlText } = splitFrontmatter(text);
  if (yamlText === undefined) return;
  try {
    loadYamlBounded(yamlText);
  } catch (err) {
    if (err instanceof YamlBoundError) {
      throw new ValidationError(`The frontmatter of ${path} is refused: ${err.message}.`, {
        path,
        field: err.field ?? '(frontmatter)',
        reason: err.reason,
      });
    }
  }
}

/** The metadata of a markdown text for an edit: a mapping, or a ValidationError saying why it cannot be edited safely. */
export function editableFrontmatter(text: string, path: string): Metadata {
  const { yaml: yamlText } = splitFrontmatter(text);
  if (yamlText === undefined || yamlText.trim() === '') return {};
  let data: MetadataValue;
  try {
    data = loadYamlBounded(yamlText);
  } catch (err) {
    const reason =
      err instanceof YamlBoundError ? err.message : ((err as Error).message.split('\n')[0] ?? 'parse error');
    throw new ValidationError(
      `The frontmatter of ${path} cannot be edited: ${reason}. Fix it by hand first; nothing was written.`,
      { path, field: 'frontmatter', reason },
    );
  }
  if (data === null) return {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new ValidationError(`The frontmatter of ${path} is not a YAML mapping; nothing was written.`, {
      path,
      field: 'frontmatter',
    });
  }
  return data;
}

/** YAML for the given keys in their order, refusing what the reader could not read back. */
export function dumpFrontmatter(metadata: Metadata): string {
  const deep = tooDeepField(metadata);
  if (deep !== undefined) {
    throw new ValidationError(
      `Metadata field "${deep}" nests deeper than ${FRONTMATTER_BOUNDS.maxDepth} levels, which could not be read back; flatten it.`,
      {
        field: deep,
        maxDepth: FRONTMATTER_BOUNDS.maxDepth,
      },
    );
  }
  return Object.keys(metadata).length === 0
    ? ''
    : yaml.dump(metadata, { schema: yaml.CORE_SCHEMA, lineWidth: -1, noRefs: true });
}

/** A new markdown text: frontmatter (when any key is given), then the body as given. */
export function composeMarkdown(metadata: Metadata, body: string): string {
  const yamlText = dumpFrontmatter(metadata);
  return yamlText === '' ? body : `---\n${yamlText}---\n\n${body}`;
}

/**
 * `text` with its frontmatter changed to `next` (keys in `next`'s order; a key missing from
 * `next` is removed). Everything after the closing fence is kept byte for byte, and so is the
 * YAML of every top-level key whose value did not change: only the lines of changed keys are
 * re-written. Where the YAML's layout defeats that (flow mappings, anchors shared between keys),
 * the whole block is re-dumped — always verified by reading the result back.
 */
export function replaceFrontmatter(text: string, next: Metadata): string {
  const match = FRONTMATTER.exec(text);
  const rest = match ? text.slice(match[0].length) : text;
  const eol = match && match[0].includes('\r\n') ? '\r\n' : '\n';
  const fence = (yamlText: string): string => `---${eol}${yamlText}---${eol}`;
  if (!match) return Object.keys(next).length === 0 ? text : `${fence(dumpFrontmatter(next))}${eol}${rest}`;
  const before = match[1] ?? '';
  const edited = editKeyByKey(before, next, eol);
  if (edited !== undefined && readsBackAs(edited, next)) return fence(edited === '' ? '' : `${edited}${eol}`) + rest;
  return fence(dumpFrontmatter(next).replace(/\n/g, eol)) + rest;
}

interface YamlEntry {
  key: string | undefined;
  lines: string[];
}

const TOP_LEVEL_KEY =
  /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#'"\-?:][^:#]*?|-[^\s:#][^:#]*?))[ \t]*:(?:[ \t]|$)/;

/** The YAML block as top-level entries (a key with its continuation lines); leading comments are an entry of their own. */
function entriesOf(yamlText: string): YamlEntry[] | undefined {
  const entries: YamlEntry[] = [];
  for (const line of yamlText.split(/\r?\n/)) {
    const key = TOP_LEVEL_KEY.exec(line);
    if (key) {
      entries.push({ key: key[1] ?? key[2]?.replace(/''/g, "'") ?? key[3]?.trim(), lines: [line] });
      continue;
    }
    // An indented line, a list item or a comment continues the entry before it.
    if (/^([ \t]|-( |$)|#|$)/.test(line) || line === '') {
      const last = entries[entries.length - 1];
      if (last) last.lines.push(line);
      else entries.push({ key: undefined, lines: [line] });
      continue;
    }
    return undefined; // a flow mapping, a document marker, ...: not edited line by line
  }
  return entries;
}

function editKeyByKey(yamlText: string, next: Metadata, eol: string): string | undefined {
  const entries = entriesOf(yamlText);
  if (!entries) return undefined;
  let current: Metadata;
  try {
    const data = yamlText.trim() === '' ? {} : loadYamlBounded(yamlText);
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
    current = data;
  } catch {
    return undefined;
  }
  const seen = new Set<string>();
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.key === undefined) {
      out.push(...entry.lines);
      continue;
    }
    const key = entry.key;
    if (seen.has(key)) return undefined; // a repeated key: let the full dump settle it
    seen.add(key);
    if (!(key in next)) continue;
    if (sameValue(current[key], next[key])) out.push(...entry.lines);
    else
      out.push(
        ...dumpFrontmatter({ [key]: next[key] as MetadataValue })
          .replace(/\n$/, '')
          .split('\n'),
      );
  }
  for (const [key, value] of Object.entries(next))
    if (!seen.has(key))
      out.push(
        ...dumpFrontmatter({ [key]: value })
          .replace(/\n$/, '')
          .split('\n'),
      );
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join(eol);
}

function readsBackAs(yamlText: string, expected: Metadata): boolean {
  try {
    const data = yamlText.trim() === '' ? {} : loadYamlBounded(yamlText);
    return (
      sameValue(data, expected) && JSON.stringify(Object.keys(data as object)) === JSON.stringify(Object.keys(expected))
    );
  } catch {
    return false;
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
