/**
 * The closed list of lifecycle hooks, each of a kind fixed by its name (the runner's methods
 * accept only the names of their kind):
 *  - sequential (`note.beforeWrite`, `vault.init`, `vault.open`): handlers run in plugin order;
 *    beforeWrite may return a replacement draft (validate, fill defaults); any may throw to veto.
 *  - parallel (the `note.after*` notifications): a failing handler is logged, tagged with its
 *    plugin and hook, and never undoes the write.
 * A handler doing long work reports it on `callProgress()`, the progress of the tool call whose write ran it.
 */
import type { Note, Metadata } from './note.js';
import type { Logger } from './logger.js';

export type WriteSource = 'tool' | 'external';

export interface NoteDraft {
  op: 'create' | 'update';
  /** Known for updates; decided by the backend for creates. */
  id?: string;
  title: string;
  content: string;
  type?: string;
  metadata: Metadata;
  /** Metadata keys the caller set in this operation (updates validate only what changed plus requireds). */
  changedKeys: string[];
  /** An update's note as the store read it for this write. */
  previous?: Note;
  /** What a handler has to tell the caller without refusing the write (a field no schema defines). */
  warnings?: string[];
}

export interface HookPayloads {
  'note.beforeWrite': NoteDraft;
  'note.afterWrite': { note: Note; op: 'create' | 'update'; source: WriteSource; previous?: Note };
  'note.afterDelete': { note: Note; source: WriteSource };
  'note.afterRename': { note: Note; oldTitle: string; source: WriteSource };
  'note.afterMove': { note: Note; fromId: string; source: WriteSource };
  /** `sampleNotes: false`: the default content without sample notes (serve on an empty folder). */
  'vault.init': { root?: string; sampleNotes?: boolean };
  /** Every plugin is registered, before the first call: work a dead process left (a journal's open entries). */
  'vault.open': { readOnly: boolean };
}

export type HookName = keyof HookPayloads;

type HookHandler<K extends HookName> = K extends 'note.beforeWrite'
  ? (draft: NoteDraft) => NoteDraft | void | Promise<NoteDraft | void>
  : (payload: HookPayloads[K]) => void | Promise<void>;

export type HookHandlers = { [K in HookName]?: HookHandler<K> };

interface Registered {
  pluginId: string;
  handlers: HookHandlers;
}

/** A note notification as observers outside the plugins see it (an MCP server announcing changes). */
export type NoteEvent = {
  [K in Exclude<HookName, 'note.beforeWrite' | 'vault.init' | 'vault.open'>]: { name: K; payload: HookPayloads[K] };
}[Exclude<HookName, 'note.beforeWrite' | 'vault.init' | 'vault.open'>];

export class HookRunner {
  private readonly registered: Registered[] = [];
  private readonly observers = new Set<(event: NoteEvent) => void>();
  private frozen = false;

  constructor(private readonly logger: Logger) {}

  add(pluginId: string, handlers: HookHandlers): void {
    if (this.frozen) throw new Error(`hooks are frozen; plugin ${pluginId} registered too late`);
    this.registered.push({ pluginId, handlers });
  }

  freeze(): void {
    this.frozen = true;
  }

  async beforeWrite(draft: NoteDraft): Promise<NoteDraft> {
    let current = draft;
    for (const { handlers } of this.registered) {
      const handler = handlers['note.beforeWrite'];
      if (!handler) continue;
      const next = await handler(current);
      if (next) current = next;
    }
    return current;
  }

  async runSequential<K extends Exclude<HookName, 'note.beforeWrite'>>(
    name: K,
    payload: HookPayloads[K],
  ): Promise<void> {
    for (const { handlers } of this.registered) {
      const handler = handlers[name] as ((p: HookPayloads[K]) => void | Promise<void>) | undefined;
      if (handler) await handler(payload);
    }
  }

  /**
   * Sees every note notification after the plugins' handlers ran, including once hooks are
   * frozen: observers are surfaces (a served MCP connection), not plugins. Returns the unsubscribe.
   */
  observe(observer: (event: NoteEvent) => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  async emit<K extends Exclude<HookName, 'note.beforeWrite' | 'vault.init' | 'vault.open'>>(
    name: K,
    payload: HookPayloads[K],
  ): Promise<void> {
    await this.emitToPlugins(name, payload);
    for (const observer of this.observers) {
      try {
        observer({ name, payload } as NoteEvent);
      } catch (err) {
        this.logger.error({ err, hook: name }, `an observer of ${name} failed`);
      }
    }
  }

  private async emitToPlugins<K extends Exclude<HookName, 'note.beforeWrite' | 'vault.init' | 'vault.open'>>(
    name: K,
    payload: HookPayloads[K],
  ): Promise<void> {
    await Promise.all(
      this.registered.map(async ({ pluginId, handlers }) => {
        const handler = handlers[name] as ((p: HookPayloads[K]) => void | Promise<void>) | undefined;
        if (!handler) return;
        try {
          await handler(payload);
        } catch (err) {
          this.logger.error({ err, plugin: pluginId, hook: name }, `hook ${name} of plugin ${pluginId} failed`);
        }
      }),
    );
  }
}
