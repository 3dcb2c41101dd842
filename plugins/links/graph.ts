/**
 * get_link_graph: the neighbourhood of a note to N hops, following links both ways (or one),
 * breadth first, capped by a node limit; and orphans, the notes no other note links to.
 */
import type { NameIndex } from './names.js';
import type { LinkGraph, LinkGraphEdge, LinkGraphNode } from './service.js';
import type { LinkStore } from './store/types.js';

export interface GraphOptions {
  depth?: number;
  direction?: 'both' | 'out' | 'in';
  limit?: number;
}

export function neighbourhood(
  links: LinkStore,
  names: NameIndex,
  center: string,
  options: GraphOptions = {},
): LinkGraph {
  const depth = options.depth ?? 1;
  const direction = options.direction ?? 'both';
  const limit = options.limit ?? 200;
  const distance = new Map<string, number>([[center, 0]]);
  let truncated = false;
  let frontier = [center];
  const visit = (id: string, d: number, next: string[]): void => {
    if (distance.has(id)) return;
    if (distance.size >= limit) {
      truncated = true;
      return;
    }
    distance.set(id, d);
    next.push(id);
  };
  for (let d = 1; d <= depth && frontier.length; d++) {
    const next: string[] = [];
    for (const id of frontier) {
      if (direction !== 'in')
        for (const link of links.outgoing(id)) if (link.target_note_id !== null) visit(link.target_note_id, d, next);
      if (direction !== 'out') for (const link of links.incoming(id)) visit(link.source_note_id, d, next);
    }
    frontier = next;
  }
  const nodes: LinkGraphNode[] = [...distance].map(([id, d]) => ({
    id,
    title: names.get(id)?.title ?? id,
    distance: d,
  }));
  nodes.sort((a, b) => a.distance - b.distance || compare(a.id, b.id));
  // Edges among the kept nodes, counted from each source's own links (exact, whatever the walk).
  const edges: LinkGraphEdge[] = [];
  for (const source of distance.keys()) {
    const counts = new Map<string, number>();
    for (const link of links.outgoing(source)) {
      if (link.target_note_id !== null && distance.has(link.target_note_id))
        counts.set(link.target_note_id, (counts.get(link.target_note_id) ?? 0) + 1);
    }
    for (const [target, count] of counts) edges.push({ source, target, count });
  }
  edges.sort((a, b) => compare(a.source, b.source) || compare(a.target, b.target));
  return { center, depth, nodes, edges, truncated };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function orphans(links: LinkStore, names: NameIndex): Array<{ id: string; title: string }> {
  const linked = new Set<string>();
  for (const { source, target } of links.edges()) if (source !== target) linked.add(target);
  const out: Array<{ id: string; title: string }> = [];
  for (const id of names.ids()) if (!linked.has(id)) out.push({ id, title: names.get(id)?.title ?? id });
  return out.sort((a, b) => compare(a.id, b.id));
}
