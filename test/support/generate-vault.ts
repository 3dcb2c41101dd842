/**
 * Deterministic generated vaults for benchmarks and end-to-end tests: flint layout (type
 * folders, YAML frontmatter), seeded random prose, and planted facts the tests can check
 * (distinctive phrases, metadata values) returned as ground truth.
 */
import fs from 'node:fs';
import path from 'node:path';

const WORDS = (
  'the of and to in is was for on that with as by at from this be are or an it not have which one you were all ' +
  'plan project meeting review design system note idea research reading book article team goal habit daily ' +
  'energy focus write draft publish sync index search query link graph agent memory vault kernel plugin backend ' +
  'storage schema metadata type folder title content change update create delete rename move tag status priority ' +
  'deadline milestone budget customer feedback release version test benchmark latency throughput cache disk file ' +
  'network server client protocol stream token model prompt context window answer question summary insight quote'
).split(' ');

const TYPES = ['general', 'daily', 'projects', 'reading', 'todos'] as const;
const STATUSES = ['not_started', 'in_progress', 'completed', 'on_hold'] as const;

export interface GeneratedNote {
  id: string;
  type: string;
  title: string;
  status: string;
  priority: number;
  tags: string[];
  /** A phrase that occurs in this note only. */
  phrase?: string;
}

export interface GeneratedVault {
  root: string;
  notes: GeneratedNote[];
  bytes: number;
}

/** A small, fast, seeded PRNG (mulberry32): the same seed gives the same vault. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateVault(
  root: string,
  count: number,
  options: { seed?: number; plantEvery?: number } = {},
): GeneratedVault {
  const random = rng(options.seed ?? 42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const plantEvery = options.plantEvery ?? 100;
  for (const type of TYPES) fs.mkdirSync(path.join(root, type), { recursive: true });
  const notes: GeneratedNote[] = [];
  let bytes = 0;
  const start = Date.parse('2024-01-01T00:00:00Z');
  for (let i = 0; i < count; i++) {
    const type = TYPES[i % TYPES.length] as string;
    const title = `${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)} ${i}`;
    const filename = `note-${i}.md`;
    const status = pick(STATUSES);
    const priority = 1 + Math.floor(random() * 5);
    const tags = [pick(WORDS), pick(WORDS)].filter((t, k, all) => all.indexOf(t) === k);
    const phrase = i % plantEvery === 0 ? `zyxplanted${i} quokka${i}` : undefined;
    const sentences: string[] = [];
    const sentenceCount = 8 + Math.floor(random() * 24);
    for (let s = 0; s < sentenceCount; s++) {
      const len = 6 + Math.floor(random() * 14);
      const words = Array.from({ length: len }, () => pick(WORDS));
      sentences.push(`${words.join(' ')}.`);
    }
    if (phrase) sentences.splice(Math.floor(sentences.length / 2), 0, `Remember ${phrase} here.`);
    const created = new Date(start + i * 60_000).toISOString();
    const text =
      `---\ntitle: ${title}\nfilename: note-${i}\ntype: ${type}\ncreated: ${created}\nupdated: ${created}\n` +
      `status: ${status}\npriority: ${priority}\ntags:\n${tags.map((t) => `  - ${t}`).join('\n')}\n---\n\n` +
      `# ${title}\n\n${sentences.join(' ')}\n`;
    fs.writeFileSync(path.join(root, type, filename), text);
    bytes += Buffer.byteLength(text);
    notes.push({ id: `${type}/${filename}`, type, title, status, priority, tags, ...(phrase ? { phrase } : {}) });
  }
  return { root, notes, bytes };
}
