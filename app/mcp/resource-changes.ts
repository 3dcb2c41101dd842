/**
 * Note changes as resource updates. Whoever changed a note (a tool on any connection, the CLI or
 * another process through the watched files, an editor), the served vault's hooks see it; this
 * turns each change into the URIs whose reads it changes and hands them, gathered over a few
 * milliseconds (a batch of 200 writes is one announcement per URI), to the MCP instances:
 * - a 2025 connection sends `notifications/resources/updated` for the URIs it subscribed to
 *   (`resources/subscribe`);
 * - a 2026-07-28 connection (stdio) sends them all and the SDK passes on those a
 *   `subscriptions/listen` stream asked for; over HTTP the handler publishes them (http.ts).
 */
import type { Server } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { NoteEvent } from '../../kernel/hooks.js';
import type { ResourceDefinition } from '../../kernel/plugin.js';
import type { ToolHost } from '../tool-host.js';
import { handle } from './requests.js';

const GATHER_MS = 15;

type Listener = (uris: readonly string[]) => void;

/** One per served process: listens to the vaults once, however many instances announce. */
export class ResourceChanges {
  private readonly listeners = new Set<Listener>();
  private readonly listListeners = new Set<() => void>();
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private stopWatching: (() => void) | undefined;

  constructor(private readonly host: ToolHost) {}

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    this.stopWatching ??= this.host.onNoteChange?.((event, vaultId) => this.changed(event, vaultId));
    return () => this.listeners.delete(listener);
  }

  /** The resource list changed (skills after a note type was written); tells who asked. */
  listChanged(): void {
    for (const listener of this.listListeners) listener();
  }

  onListChanged(listener: () => void): () => void {
    this.listListeners.add(listener);
    return () => this.listListeners.delete(listener);
  }

  close(): void {
    this.listListeners.clear();
    this.stopWatching?.();
    clearTimeout(this.timer);
    this.listeners.clear();
  }

  private changed(event: NoteEvent, vaultId: string): void {
    for (const uri of changedUris(this.host.resources(), event, vaultId, this.host.info.id)) this.pending.add(uri);
    this.timer ??= setTimeout(() => this.flush(), GATHER_MS);
  }

  private flush(): void {
    this.timer = undefined;
    const uris = [...this.pending];
    this.pending = new Set();
    for (const listener of this.listeners) listener(uris);
  }
}

/**
 * The fixed resources (recent notes, stats, types, preferences: views any note can change) and,
 * under each template, the URIs the change reaches: the note's own (by `{type}/{filename}` — with
 * and without `.md`, both of which read it — or `{id}`), before and after a rename or move, and the
 * tag lists (`{tag}`) of the tags it has or had. Templates without `{vault_id}` address the current
 * vault, so a change elsewhere reaches only those with it. Not announced: views of other notes
 * that merely link to this one (their backlink lists).
 */
export function changedUris(
  resources: readonly ResourceDefinition[],
  event: NoteEvent,
  vaultId: string,
  currentVaultId: string,
): string[] {
  const notes: Array<{ id: string; tags: readonly string[] }> = [event.payload.note];
  if (event.name === 'note.afterMove') notes.push({ id: event.payload.fromId, tags: [] });
  if (event.name === 'note.afterWrite' && event.payload.previous) notes.push(event.payload.previous);
  const uris = new Set(resources.filter((r) => !r.template).map((r) => r.uri));
  for (const resource of resources) {
    if (!resource.template) continue;
    if (!resource.uri.includes('{vault_id}') && vaultId !== currentVaultId) continue;
    for (const note of notes) for (const uri of fill(resource.uri, note, vaultId)) uris.add(uri);
  }
  return [...uris];
}

function fill(template: string, note: { id: string; tags: readonly string[] }, vaultId: string): string[] {
  const slash = note.id.lastIndexOf('/');
  const file = slash > 0 ? note.id.slice(slash + 1) : undefined;
  const base = {
    id: [note.id],
    vault_id: [vaultId],
    type: slash > 0 ? [note.id.slice(0, slash)] : [],
    filename: file ? [...new Set([file, file.replace(/\.md$/i, '')])] : [],
    tag: note.tags.map((t) => t.replace(/^#/, '').toLowerCase()),
  } as Record<string, string[]>;
  let uris = [template];
  for (const name of template.match(/\{[a-zA-Z0-9_]+\}/g) ?? []) {
    const values = (base[name.slice(1, -1)] ?? []).filter((v) => !v.includes('/'));
    uris = uris.flatMap((uri) => values.map((v) => uri.replace(name, encodeURIComponent(v))));
  }
  return uris;
}

/** Wires one instance to the process's changes; returns the function that stops it. */
export function announceChanges(server: Server, changes: ResourceChanges, era: 'legacy' | 'modern'): () => void {
  const send = (uri: string) => server.sendResourceUpdated({ uri }).catch(() => undefined);
  if (era === 'modern') return changes.subscribe((uris) => uris.forEach(send));
  const subscribed = new Set<string>();
  const params = z.object({ uri: z.string({ error: 'a resource uri (string) is required' }) }).loose();
  handle(server, 'resources/subscribe', params, async ({ uri }) => {
    subscribed.add(uri);
    return {};
  });
  handle(server, 'resources/unsubscribe', params, async ({ uri }) => {
    subscribed.delete(uri);
    return {};
  });
  return changes.subscribe((uris) => {
    for (const uri of uris) if (subscribed.has(uri)) send(uri);
  });
}
