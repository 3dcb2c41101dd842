/**
 * Each profile's vault for the retrieval bench, written in the profile's own layout and read by
 * its own storage, and its default search tool called through the library as an agent calls it.
 * A search returns, per hit, the fields that can name the note (title, file name, key): the
 * dataset maps them back to a note id.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createKernel as createKernelWith } from '../../app/config/assemble.js';
import { createKernel } from '../../app/index.js';
import { silentLogger } from '../../kernel/logger.js';
import { simplenoteBackendWith } from '../../backends/simplenote/index.js';
import { simplenoteToolsPlugin } from '../../plugins/simplenote-tools/index.js';
import { notariumProfile } from '../../profiles/notarium/index.js';
import { startFakeSimperium } from '../support/fake-simperium/index.js';
import type { Doc } from './retrieval-data.js';

export const PROFILES = ['flint', 'agent-memory', 'obsidian', 'zettelkasten', 'notarium'] as const;
export type ProfileId = (typeof PROFILES)[number];

/** Per hit, the fields that can name its note; `notice` when the answer says its ranking is not the whole story. */
export type Search = (query: string) => Promise<{ hits: string[][]; notice?: string }>;

export interface ProfileVault {
  /** One search per mode measured: the default first, labelled as the table prints it. */
  legs: Array<{ label: string; search: Search }>;
  close(): Promise<void>;
}

type Vault = { call(name: string, args?: unknown): Promise<unknown> };

const K = 10;
/** Frontmatter with the title, as Obsidian and flat vaults hold it (JSON strings are YAML strings). */
const markdown = (doc: Doc) => `---\ntitle: ${JSON.stringify(doc.title)}\n---\n\n${doc.body}`;

function writeFiles(dir: string, docs: readonly Doc[]): void {
  for (const doc of docs) fs.writeFileSync(path.join(dir, `${doc.id}.md`), markdown(doc));
}

export async function openProfile(profile: ProfileId, docs: readonly Doc[], dir: string): Promise<ProfileVault> {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  if (profile === 'notarium') return notarium(docs, dir);
  // Files a profile reads as they are go in before the open, so its index is built from them.
  if (profile === 'obsidian' || profile === 'zettelkasten') writeFiles(dir, docs);
  const kernel = await createKernel({ profile, config: {}, logger: silentLogger() });
  const vault: Vault = await kernel.openVault(dir);
  const close = () => kernel.close();
  switch (profile) {
    case 'flint':
      return { legs: [{ label: 'flint search_notes', search: await flint(vault, docs) }], close };
    case 'agent-memory':
      return { legs: [{ label: 'agent-memory memory_search', search: await agentMemory(vault, docs) }], close };
    case 'obsidian':
      return { legs: await obsidian(vault), close };
    case 'zettelkasten':
      return { legs: [{ label: 'zettelkasten find_cards', search: zettelkasten(vault) }], close };
  }
}

/** `<type>/<name>.md` with flint's frontmatter, through create_note in batches (its limit is 1,000). */
async function flint(vault: Vault, docs: readonly Doc[]): Promise<Search> {
  for (let i = 0; i < docs.length; i += 500) {
    const batch = docs.slice(i, i + 500).map((d) => ({ type: 'general', title: d.title, content: d.body }));
    const created = (await vault.call('create_note', { notes: batch })) as { successful: number };
    if (created.successful !== batch.length)
      throw new Error(`flint: create_note made ${created.successful} of ${batch.length} notes`);
  }
  return async (query) => {
    const answer = (await vault.call('search_notes', { query, limit: K })) as {
      results: Array<{ title: string; filename: string }>;
    };
    return { hits: answer.results.map((r) => [r.title, r.filename]) };
  };
}

/** Entries `slug id__XXXXXX.md` (`# title`, then the body), through memory_capture. */
async function agentMemory(vault: Vault, docs: readonly Doc[]): Promise<Search> {
  for (const doc of docs) await vault.call('memory_capture', { title: doc.title, body: doc.body });
  return async (query) => {
    // memory_search has no limit argument: it answers up to 50, an agent reads the first ones.
    const answer = (await vault.call('memory_search', { query })) as Array<{ title: string; path: string }>;
    return { hits: answer.slice(0, K).map((r) => [r.title, r.path]) };
  };
}

async function obsidian(vault: Vault): Promise<ProfileVault['legs']> {
  // The index embeds every passage behind the open: wait once for all vectors, unmeasured.
  await vault.call('search_vault', { query: 'warm up', n_results: 1, wait_for_vectors: true });
  const leg = (mode: string) => async (query: string) => {
    const answer = (await vault.call('search_vault', { query, n_results: K, mode })) as {
      results: Array<{ source: string }>;
      notice?: string;
    };
    // A notice: the ranking by meaning saw only the passages embedded so far, or could not run.
    return { hits: answer.results.map((r) => [r.source]), ...(answer.notice ? { notice: answer.notice } : {}) };
  };
  // Measured in this order: the index remembers the last 256 query vectors, so with fewer
  // questions than that the semantic leg reuses the hybrid leg's and its latency omits the model.
  return [
    { label: 'obsidian search_vault (hybrid)', search: leg('hybrid') },
    { label: 'obsidian search_vault semantic', search: leg('semantic') },
    { label: 'obsidian search_vault keyword', search: leg('keyword') },
  ];
}

/** Cards are the flat folder's files; find_cards has no limit, an agent reads the first ones. */
function zettelkasten(vault: Vault): Search {
  return async (query) => {
    const answer = (await vault.call('find_cards', { query })) as { cards: Array<{ filename: string; title: string }> };
    return { hits: answer.cards.slice(0, K).map((c) => [c.filename, c.title]) };
  };
}

/** A Simplenote account on the fake Simperium server (loopback): one note per doc, keyed by its slugged id, title on the first line. */
async function notarium(docs: readonly Doc[], dir: string): Promise<ProfileVault> {
  const fake = await startFakeSimperium();
  docs.forEach((doc, i) => {
    const t = 1_700_000_000 + i;
    const key = doc.id.replace(/[^A-Za-z0-9-]+/g, '-');
    fake.bucket().post(key, {
      content: `${doc.title}\n${doc.body}`,
      tags: [],
      systemTags: [],
      creationDate: t,
      modificationDate: t,
      deleted: false,
      shareURL: '',
      publishURL: '',
    });
  });
  const env = {
    SIMPERIUM_AUTH_URL: fake.url,
    SIMPERIUM_API_URL: fake.url,
    SIMPERIUM_API_KEY: fake.apiKey,
    SIMPLENOTE_USERNAME: 'user@example.com',
    SIMPLENOTE_PASSWORD: 'secret-password',
  };
  const kernel = await createKernelWith({
    profile: 'notarium',
    config: { storage: { backend: 'simplenote', options: { firstSync: 'at-open', syncIntervalSeconds: 0 } } },
    catalogue: {
      profiles: [notariumProfile],
      plugins: [simplenoteToolsPlugin],
      backends: [simplenoteBackendWith({ env })],
    },
    logger: silentLogger(),
  });
  try {
    const vault: Vault = await kernel.openVault(dir);
    const search: Search = async (query) => {
      const answer = (await vault.call('list', { query, limit: K })) as {
        content: Array<{ uuid: string; text: string }>;
      };
      return { hits: answer.content.map((c) => [c.uuid, c.text]) };
    };
    return {
      legs: [{ label: 'notarium list', search }],
      async close() {
        await kernel.close();
        await fake.stop();
      },
    };
  } catch (error) {
    await kernel.close();
    await fake.stop();
    throw error;
  }
}

/** The bench's vault folders: under the bench work dir, rebuilt every run. */
export function vaultDir(workDir: string, dataset: string, profile: string): string {
  return path.join(workDir, 'retrieval', `${dataset.toLowerCase()}-${profile}`);
}
