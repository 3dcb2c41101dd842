/**
 * What the eras test asks of every profile, and how it compares the answers. Each client writes
 * a note of its own, named by a bird word that belongs to it, reads that note back and searches
 * for the word. The words all have seven letters, so sizes, snippets and scores do not differ
 * between clients; once each answer has its word, its vault folder, its note's id and its
 * timestamps and hashes replaced by placeholders, the answers of every era must be equal.
 */

/** One word per client, each seven letters long. */
export const BIRDS = ['kestrel', 'harrier', 'buzzard', 'sparrow'] as const;

export type Bird = (typeof BIRDS)[number];

/** A tool call: the bird it is made for, and the structured answers of the client's earlier calls. */
export type Step = (bird: Bird, earlier: Record<string, unknown>[]) => { tool: string; args: Record<string, unknown> };

const title = (bird: Bird) => `${bird[0]!.toUpperCase()}${bird.slice(1)}`;
const idOf = (earlier: Record<string, unknown>[]) => String(earlier[0]?.id);

/** Per profile: one write, one read of what was written, one search (decision: the same three kinds everywhere). */
export const STEPS: Record<string, Step[]> = {
  flint: [
    (b) => ({
      tool: 'create_note',
      args: { title: `${title(b)} sighting`, content: `A ${b} hovered over the field.` },
    }),
    (b) => ({ tool: 'get_note', args: { identifier: `general/${b}-sighting.md` } }),
    (b) => ({ tool: 'search_notes', args: { query: b } }),
  ],
  zettelkasten: [
    (b) => ({
      tool: 'save_card',
      args: {
        formatted_card: `# 20251021-${title(b)}-Card\n\nA ${b} hovered.`,
        filename: `20251021-${title(b)}-Card.md`,
      },
    }),
    (b) => ({ tool: 'find_cards', args: { filename: `20251021-${title(b)}-Card` } }),
    (b) => ({ tool: 'find_cards', args: { query: b } }),
  ],
  'agent-memory': [
    (b) => ({
      tool: 'memory_capture',
      args: { title: `${title(b)} sighting`, body: `A ${b} hovered.`, tags: ['birds'] },
    }),
    (_, earlier) => ({ tool: 'memory_read', args: { id: idOf(earlier) } }),
    (b) => ({ tool: 'memory_search', args: { query: b } }),
  ],
  notarium: [
    (b) => ({ tool: 'save', args: { text: `${title(b)} sighting\nA ${b} hovered.`, tags: ['birds'] } }),
    (_, earlier) => ({ tool: 'get', args: { id: idOf(earlier) } }),
    (b) => ({ tool: 'list', args: { query: b } }),
  ],
  obsidian: [
    (b) => ({ tool: 'create_file', args: { path: `Birds/${title(b)}.md`, content: `A ${b} hovered.` } }),
    (b) => ({ tool: 'read_file', args: { path: `Birds/${title(b)}.md` } }),
    // Keyword mode: the semantic model would only add a load, not another path through the protocol.
    (b) => ({ tool: 'search_vault', args: { query: b, mode: 'keyword' } }),
  ],
};

export interface Normalising {
  bird: Bird;
  /** The vault folder the answering server serves (its path and its name appear in answers). */
  vault: string;
  /** Ids the server made up for this client's note (agent-memory's, Simplenote's). */
  ids: string[];
}

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const TIME_KEY = /(created|updated|modified|At$|AtMs$|_at$|lastUpdated|timestamp)/i;
const HASH_KEY = /^(content_hash|contentHash|hash)$/;

/**
 * An answer with what differs by design between two clients replaced: its own word, its vault,
 * its note's ids, the times it was written at and the hashes of contents that hold those times.
 */
export function normalise(answer: unknown, { bird, vault, ids }: Normalising): unknown {
  let text = JSON.stringify(answer) ?? 'null';
  for (const id of ids) text = text.split(id).join('<id>');
  text = text.split(vault).join('<vault>');
  const folder = vault.slice(vault.lastIndexOf('/') + 1);
  text = text.split(folder).join('<vault>');
  text = text.replace(new RegExp(bird, 'gi'), (word) => (word[0] === word[0]!.toUpperCase() ? 'Bird' : 'bird'));
  return placeholders(JSON.parse(text) as unknown, '');
}

function placeholders(value: unknown, key: string): unknown {
  if (Array.isArray(value)) return value.map((item) => placeholders(item, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, placeholders(v, k)]));
  if (typeof value === 'string' && ISO_TIME.test(value)) return '<time>';
  if (typeof value === 'number' && TIME_KEY.test(key) && value > 1e9) return '<time>';
  if (typeof value === 'string' && HASH_KEY.test(key)) return '<hash>';
  return value;
}
