/**
 * A generated flint vault with planted links and their ground truth, for the links end-to-end
 * tests and benchmarks. Every note links to a few others in every form the parser knows (title,
 * lower-case title, alias, heading, block, embed, filename, path, table cell with an escaped
 * pipe); some notes hold broken links, links inside code (which do not count) and URLs.
 *   - `hub` (note 0) receives exactly `hubInbound` links, one from each of notes 1..hubInbound,
 *     in rotating forms, with the alias (if any) recorded per linking note;
 *   - `mover` (note 1) receives links by filename and path, the forms an `mv` breaks;
 *   - `inbound` counts, per note id, the links (occurrences) that resolve to it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { rng } from './generate-vault.js';

const WORDS =
  'plan project meeting review design system idea research reading book team goal habit focus draft sync index search link graph agent memory vault kernel plugin storage schema'.split(
    ' ',
  );
const TYPES = ['general', 'projects', 'reading'] as const;

export interface LinkedNote {
  id: string;
  title: string;
  stem: string;
}

export interface HubLink {
  /** The linking note. */
  source: string;
  /** The link as written. */
  raw: string;
  /** Its display text (alias), which a rename must keep, or null. */
  alias: string | null;
}

export interface LinkedVault {
  root: string;
  notes: LinkedNote[];
  /** Links (occurrences) resolving to each note id; notes without inbound links are absent. */
  inbound: Map<string, number>;
  /** Planted broken links. */
  broken: number;
  hub: LinkedNote;
  hubLinks: HubLink[];
  mover: LinkedNote;
  /** Links to the mover by filename or path (the ones links_repair must rewrite after an mv). */
  moverNameLinks: number;
  bytes: number;
}

export interface LinkedVaultOptions {
  seed?: number;
  hubInbound?: number;
  /** Random links per note: min and max. */
  linksPerNote?: [number, number];
  /** Words of filler prose per note. */
  proseWords?: number;
}

export function generateLinkedVault(root: string, count: number, options: LinkedVaultOptions = {}): LinkedVault {
  const random = rng(options.seed ?? 7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const hubInbound = Math.min(options.hubInbound ?? 200, count - 1);
  const [minLinks, maxLinks] = options.linksPerNote ?? [2, 6];
  for (const type of TYPES) fs.mkdirSync(path.join(root, type), { recursive: true });

  const notes: LinkedNote[] = Array.from({ length: count }, (_, i) => {
    const type = TYPES[i % TYPES.length] as string;
    const title = i === 0 ? 'Hub Note' : i === 1 ? 'Mover Note' : `${pick(WORDS)} ${pick(WORDS)} ${i}`;
    return { id: `${type}/note-${i}.md`, title, stem: `note-${i}` };
  });
  const hub = notes[0] as LinkedNote;
  const mover = notes[1] as LinkedNote;
  const inbound = new Map<string, number>();
  const count1 = (id: string) => inbound.set(id, (inbound.get(id) ?? 0) + 1);
  const hubLinks: HubLink[] = [];
  let broken = 0;
  let moverNameLinks = 0;
  let bytes = 0;

  for (let i = 0; i < count; i++) {
    const lines: string[] = [`# ${notes[i]?.title}`, ''];
    if (i >= 1 && i <= hubInbound) {
      const link = hubForm(i);
      hubLinks.push({ source: (notes[i] as LinkedNote).id, ...link });
      lines.push(`Related: ${link.raw}`);
      count1(hub.id);
    }
    const links = minLinks + Math.floor(random() * (maxLinks - minLinks + 1));
    for (let k = 0; k < links; k++) {
      // Random links never target the hub (its count stays exact) or the note itself.
      const j = 2 + Math.floor(random() * (count - 2));
      if (j === i) continue;
      const target = notes[j] as LinkedNote;
      lines.push(`${prose(random, pick, 6)} ${randomForm(target, random)} ${prose(random, pick, 4)}.`);
      count1(target.id);
    }
    if (i > 1 && i % 5 === 0) {
      const form = i % 10 === 0 ? `[[${mover.stem}|the mover]]` : `[[${mover.id.replace(/\.md$/, '')}]]`;
      lines.push(`Moving part: ${form}.`);
      count1(mover.id);
      moverNameLinks++;
    }
    if (i % 7 === 0) {
      lines.push(`Waiting on [[Nowhere ${i}]].`);
      broken++;
    }
    if (i % 4 === 0)
      lines.push(
        '',
        '```md',
        `[[${hub.title}]] #not-a-tag`,
        '```',
        `Inline \`[[${hub.title}]]\` is code too, see https://example.com/${i}#frag.`,
      );
    lines.push('', prose(random, pick, options.proseWords ?? 60), '');
    const text = `---\ntitle: ${JSON.stringify(notes[i]?.title)}\ntype: ${(notes[i] as LinkedNote).id.split('/')[0]}\ntags: [${pick(WORDS)}]\n---\n\n${lines.join('\n')}\n`;
    fs.writeFileSync(path.join(root, (notes[i] as LinkedNote).id), text);
    bytes += Buffer.byteLength(text);
  }
  return { root, notes, inbound, broken, hub, hubLinks, mover, moverNameLinks, bytes };
}

/** The hub's inbound links rotate through every form a rename must handle. */
function hubForm(i: number): { raw: string; alias: string | null } {
  switch (i % 6) {
    case 0:
      return { raw: '[[Hub Note]]', alias: null };
    case 1:
      return { raw: `[[Hub Note|alias ${i}]]`, alias: `alias ${i}` };
    case 2:
      return { raw: `[[hub note#Section|section ${i}]]`, alias: `section ${i}` };
    case 3:
      return { raw: '![[Hub Note]]', alias: null };
    case 4:
      return { raw: `| cell | [[Hub Note\\|cell ${i}]] |`, alias: `cell ${i}` };
    default:
      return { raw: '[[Hub Note#^block1]]', alias: null };
  }
}

function randomForm(target: LinkedNote, random: () => number): string {
  const r = random();
  if (r < 0.35) return `[[${target.title}]]`;
  if (r < 0.5) return `[[${target.title}|see this]]`;
  if (r < 0.6) return `[[${target.title.toLowerCase()}]]`;
  if (r < 0.7) return `[[${target.title}#Details]]`;
  if (r < 0.8) return `[[${target.stem}]]`;
  if (r < 0.9) return `[[${target.id.replace(/\.md$/, '')}|by path]]`;
  return `![[${target.title}]]`;
}

function prose(random: () => number, pick: <T>(items: readonly T[]) => T, words: number): string {
  return Array.from({ length: words }, () => pick(WORDS)).join(' ');
}
