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
    for (const uri of changedUris(this.host.resources(), event, vaultId)) this.pending.add(uri);
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
 * The fixed resources (recent notes, stats, types, preferences: views any note can change) and
 * the note's own URI under each template addressed by note (`{type}/{filename}`, `{id}`, with
 * `{vault_id}`), before and after a rename or move.
 */
export function changedUris(resources: readonly ResourceDefinition[], event: NoteEvent, vaultId: string): string[] {
  const ids = new Set([event.payload.note.id]);
  if (event.name === 'note.afterMove') ids.add(event.payload.fromId);
  if (event.name === 'note.afterWrite' && event.payload.previous) ids.add(event.payload.previous.id);
  const uris = resources.filter((r) => !r.template).map((r) => r.uri);
  for (const resource of resources) {
    if (!resource.template) continue;
    for (const id of ids) {
      const uri = fill(resource.uri, id, vaultId);
      if (uri) uris.push(uri);
    }
  }
  return uris;
}

function fill(template: string, id: string, vaultId: string): string | undefined {
  const slash = id.lastIndexOf('/');
  const values: Record<string, string | undefined> = {
    id,
    vault_id: vaultId,
    type: slash > 0 ? id.slice(0, slash) : undefined,
    filename: slash > 0 ? id.slice(slash + 1) : undefined,
  };
  let complete = true;
  const uri = template.replace(/\{([a-zA-Z0-9_]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value.includes('/')) complete = false;
    return encodeURIComponent(value ?? '');
  });
  return complete ? uri : undefined;
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
