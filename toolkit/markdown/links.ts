/**
 * Link scanners: wikilinks and embeds (`[[...]]`, `![[...]]`, seed 002's `[[id__XXXXXX|text]]`),
 * markdown links and images, bare URLs. Each is one global regex over the whole text; a match
 * touching code (or, for later scanners, an earlier link) is dropped. Regexes, not a markdown
 * AST: a full parse costs ~10× more and the link grammar is regular enough (the ≥60-case table
 * in test/unit/links/parser.test.ts pins down the edges).
 */
import { RangeCursor, type Range } from './code-regions.js';
import type { LineIndex } from './line-index.js';
import type { ExternalLink, NoteLink } from './types.js';

const WIKILINK = /(!?)\[\[([^[\]\n\r]+)\]\]/g;
/** seed 002: `id__` and six letters or digits; anything else after `id__` is malformed. */
export const ID_REF = /^id__[A-Za-z0-9]{6}$/;
const ATTACHMENT =
  /\.(png|jpe?g|gif|svg|webp|bmp|avif|pdf|mp3|mp4|m4a|wav|webm|ogg|ogv|mov|mkv|flac|canvas|excalidraw|zip|csv|xlsx?|docx?|pptx?)$/i;

// [text](destination "title"): one level of nested brackets in the text (badges:
// [![alt](img)](url)), a destination in <...> or without spaces, with balanced parentheses.
const MARKDOWN_LINK =
  /(!?)\[((?:[^[\]\\\n]|\\.|\[(?:[^[\]\\\n]|\\.)*\])*)\]\([ \t]*(<[^<>\n]*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))+)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'))?[ \t]*\)/g;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const BARE_URL = /\b(?:https?|ftp):\/\/[^\s<>"'`[\]{}|\\^]+/g;
const TRAILING_PUNCTUATION = /[.,:;!?'"*_~]+$/;

export function scanWikilinks(
  text: string,
  code: readonly Range[],
  lines: LineIndex,
  links: NoteLink[],
  externals: ExternalLink[],
  taken: Range[],
): void {
  const cursor = new RangeCursor(code);
  WIKILINK.lastIndex = 0;
  for (let m = WIKILINK.exec(text); m; m = WIKILINK.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (isEscaped(text, start) || cursor.overlaps(start, end)) continue;
    // Even a self-link or a malformed id link hides its text from the URL and tag scans.
    taken.push({ start, end });
    const embed = m[1] === '!';
    const parsed = parseInner(m[2] as string);
    if (!parsed) continue;
    const line = lines.line(start);
    const column = start - lines.lineStart(line) + 1;
    if (ATTACHMENT.test(parsed.target)) {
      externals.push({
        kind: embed ? 'embed' : 'url',
        raw: m[0],
        url: parsed.target,
        title: parsed.alias,
        line,
        column,
        start,
        end,
      });
      continue;
    }
    // Built field by field (no spreads): this loop runs once per link in the vault.
    links.push({
      kind: embed ? 'embed' : 'wikilink',
      raw: m[0],
      target: parsed.target,
      targetText: parsed.targetText,
      heading: parsed.heading,
      block: parsed.block,
      alias: parsed.alias,
      idRef: parsed.idRef,
      escapedPipe: parsed.escapedPipe,
      destination: null,
      line,
      column,
      start,
      end,
    });
  }
}

type Inner = Pick<NoteLink, 'target' | 'targetText' | 'heading' | 'block' | 'alias' | 'idRef' | 'escapedPipe'>;

/** `Target#Heading|alias`, `Target#^block`, `Target\|alias` (tables); null when malformed or a self-link. */
export function parseInner(inner: string): Inner | null {
  const pipe = inner.indexOf('|');
  let before = pipe === -1 ? inner : inner.slice(0, pipe);
  let escapedPipe = false;
  if (pipe !== -1 && before.endsWith('\\')) {
    before = before.slice(0, -1);
    escapedPipe = true;
  }
  const aliasText = pipe === -1 ? null : inner.slice(pipe + 1).trim();
  const targetText = before.trim();
  const hash = targetText.indexOf('#');
  const target = (hash === -1 ? targetText : targetText.slice(0, hash)).trim();
  // `[[#Heading]]` points into the same note: not a link between notes.
  if (target === '') return null;
  const anchor = hash === -1 ? null : targetText.slice(hash + 1).trim();
  let idRef: string | null = null;
  if (target.startsWith('id__')) {
    if (!ID_REF.test(target)) return null;
    idRef = target;
  }
  return {
    target,
    targetText,
    heading: anchor !== null && !anchor.startsWith('^') && anchor !== '' ? anchor : null,
    block: anchor !== null && anchor.startsWith('^') && anchor.length > 1 ? anchor.slice(1) : null,
    alias: aliasText === null || aliasText === '' ? null : aliasText,
    idRef,
    escapedPipe,
  };
}

export function scanMarkdownLinks(
  text: string,
  blocked: readonly Range[],
  lines: LineIndex,
  links: NoteLink[],
  externals: ExternalLink[],
  taken: Range[],
  offset = 0,
): void {
  const cursor = new RangeCursor(blocked);
  const re = new RegExp(MARKDOWN_LINK.source, 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = offset + m.index;
    const end = start + m[0].length;
    if (isEscaped(text, m.index) || cursor.overlaps(start, end)) continue;
    taken.push({ start, end });
    const image = m[1] === '!';
    const label = m[2] as string;
    // A badge's image sits inside the outer link's text: scan that text too.
    if (label.includes('](')) scanMarkdownLinks(label, [], lines, links, externals, [], start + 1 + (image ? 1 : 0));
    const rawDestination = m[3] as string;
    const destOffset = m[0].indexOf(rawDestination, 2 + label.length);
    const destination = { start: start + destOffset, end: start + destOffset + rawDestination.length };
    const classified = classify(rawDestination, image);
    if (!classified) continue;
    const pos = lines.position(start, end);
    const title = unescapeBackslashes(label).trim() || null;
    if (classified.kind === 'note') {
      links.push({
        kind: 'markdown',
        raw: m[0],
        target: classified.path,
        targetText: classified.path + (classified.fragment ? `#${classified.fragment}` : ''),
        heading: classified.fragment,
        block: null,
        alias: title,
        idRef: null,
        escapedPipe: false,
        destination,
        ...pos,
      });
    } else {
      externals.push({ kind: image ? 'image' : 'url', raw: m[0], url: classified.url, title, ...pos });
    }
  }
}

type Classified = { kind: 'note'; path: string; fragment: string | null } | { kind: 'external'; url: string };

function classify(rawDestination: string, image: boolean): Classified | null {
  const dest = unescapeBackslashes(
    rawDestination.startsWith('<') ? rawDestination.slice(1, -1) : rawDestination,
  ).trim();
  if (dest === '' || dest.startsWith('#')) return null; // an anchor in the same note
  if (SCHEME.test(dest)) return { kind: 'external', url: dest };
  const hash = dest.indexOf('#');
  const pathPart = decode(hash === -1 ? dest : dest.slice(0, hash));
  if (!image && /\.md$/i.test(pathPart)) {
    const fragment = hash === -1 ? null : decode(dest.slice(hash + 1)) || null;
    return { kind: 'note', path: pathPart, fragment };
  }
  return { kind: 'external', url: dest };
}

export function scanBareUrls(
  text: string,
  blocked: readonly Range[],
  lines: LineIndex,
  externals: ExternalLink[],
  taken: Range[],
): void {
  const cursor = new RangeCursor(blocked);
  BARE_URL.lastIndex = 0;
  for (let m = BARE_URL.exec(text); m; m = BARE_URL.exec(text)) {
    const url = trimUrl(m[0]);
    const start = m.index;
    const end = start + url.length;
    if (cursor.overlaps(start, end)) continue;
    taken.push({ start, end });
    externals.push({ kind: 'url', raw: url, url, title: null, ...lines.position(start, end) });
  }
}

/** Drops trailing punctuation and closing parentheses that the URL did not open. */
function trimUrl(url: string): string {
  let out = url;
  for (;;) {
    const next = out.replace(TRAILING_PUNCTUATION, '');
    const open = (next.match(/\(/g) ?? []).length;
    const close = (next.match(/\)/g) ?? []).length;
    const trimmed = next.endsWith(')') && close > open ? next.slice(0, -1) : next;
    if (trimmed === out) return out;
    out = trimmed;
  }
}

function isEscaped(text: string, index: number): boolean {
  let slashes = 0;
  for (let i = index - 1; i >= 0 && text[i] === '\\'; i--) slashes++;
  return slashes % 2 === 1;
}

function unescapeBackslashes(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
