/**
 * A generated Obsidian-style vault: no frontmatter, the title is the filename ("Project Quasar
 * 13.md"), families of near-identical titles (the same prefix and codename, another number),
 * daily notes named by date, and bodies that mention other notes by [[wikilink]], numbers and
 * dates. Exact-title queries are hard here: "Project Quasar 13" shares two words with every
 * note of its family, and "13" appears in many bodies.
 */
import fs from 'node:fs';
import path from 'node:path';
import { rng } from './generate-vault.js';

const PREFIXES = ['Project', 'Meeting', 'Idea', 'Book', 'Person', 'Topic'] as const;
const CODENAMES =
  'Quasar Nebula Aurora Falcon Cobalt Granite Juniper Meridian Orchid Pioneer Quartz Saffron Tundra Vertex Willow Zephyr'.split(
    ' ',
  );
const WORDS = (
  'the of and to in is was for on that with as by at from this be are or an it not have plan project meeting review design ' +
  'system idea research reading book team goal habit focus draft sync index search link graph agent memory vault notes ' +
  'budget customer feedback release version test latency cache file network server client quasar nebula aurora falcon'
).split(' ');
const FOLDERS = ['projects', 'meetings', 'ideas', 'reading', 'people', 'daily'] as const;

export interface ObsidianNote {
  id: string;
  title: string;
}

export interface ObsidianVault {
  root: string;
  notes: ObsidianNote[];
  /** Notes that link to each note id (sources, deduplicated). */
  backlinks: Map<string, string[]>;
  bytes: number;
}

export function generateObsidianVault(root: string, count: number, options: { seed?: number } = {}): ObsidianVault {
  const random = rng(options.seed ?? 1811);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  for (const folder of FOLDERS) fs.mkdirSync(path.join(root, folder), { recursive: true });
  const notes: ObsidianNote[] = [];
  const perFamily = Math.max(20, Math.ceil(count / (PREFIXES.length * CODENAMES.length * 2)));
  const day = Date.parse('2021-01-01T00:00:00Z');
  for (let i = 0; i < count; i++) {
    let title: string;
    let folder: string;
    if (i % 6 === 5) {
      title = new Date(day + Math.floor(i / 6) * 86_400_000).toISOString().slice(0, 10);
      folder = 'daily';
    } else {
      const prefix = PREFIXES[i % PREFIXES.length] as string;
      const codename = CODENAMES[Math.floor(i / PREFIXES.length) % CODENAMES.length] as string;
      const n = Math.floor(i / (PREFIXES.length * CODENAMES.length)) % perFamily;
      const suffix = Math.floor(i / (PREFIXES.length * CODENAMES.length * perFamily));
      title = `${prefix} ${codename} ${n}${suffix ? ` ${String.fromCharCode(97 + (suffix % 26))}` : ''}`;
      folder = FOLDERS[i % (FOLDERS.length - 1)] as string;
    }
    notes.push({ id: `${folder}/${title}.md`, title });
  }
  const backlinks = new Map<string, string[]>();
  let bytes = 0;
  for (const note of notes) {
    const lines: string[] = [`# ${note.title}`, ''];
    const paragraphs = 3 + Math.floor(random() * 6);
    const linked = new Set<string>();
    for (let p = 0; p < paragraphs; p++) {
      const words = Array.from({ length: 20 + Math.floor(random() * 40) }, () =>
        random() < 0.08 ? String(Math.floor(random() * 60)) : pick(WORDS),
      );
      if (random() < 0.7) {
        const target = pick(notes);
        if (target !== note) {
          words.splice(Math.floor(random() * words.length), 0, `[[${target.title}]]`);
          linked.add(target.id);
        }
      }
      lines.push(`${words.join(' ')}.`, '');
    }
    for (const target of linked) {
      const list = backlinks.get(target);
      if (list) list.push(note.id);
      else backlinks.set(target, [note.id]);
    }
    const text = lines.join('\n');
    fs.writeFileSync(path.join(root, note.id), text);
    bytes += Buffer.byteLength(text);
  }
  return { root, notes, backlinks, bytes };
}
