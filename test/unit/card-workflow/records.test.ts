/**
 * Workflow records (decision 040): which record an argument-less call defaults to, and that a
 * record never blocks a step: stale, closed, foreign, unreadable or read-only.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../kernel/logger.js';
import {
  createRecordStore,
  DEFAULT_WINDOW_MS,
  PRUNE_AFTER_MS,
  RECORDS_DIR,
  type RecordStore,
} from '../../../plugins/card-workflow/records.js';
import { createVaultFiles } from '../../../toolkit/files/vault-files.js';
import { WriteLocks } from '../../../toolkit/files/write-locks.js';
import { removeDir, tempDir } from '../../support/temp.js';

let root: string;
let clock: number;
const locks: WriteLocks[] = [];

beforeEach(async () => {
  root = await tempDir('nk-zk-records-');
  clock = Date.parse('2025-10-21T18:30:00Z');
});
afterEach(async () => {
  locks.splice(0).forEach((l) => l.close());
  await removeDir(root);
});

/** A store as one server process sees the vault: its own owner mark, the shared files. */
function server(owner: string, readOnly = false): RecordStore {
  const lock = new WriteLocks(root, path.join(root, '.notekernel', 'locks'));
  locks.push(lock);
  return createRecordStore({
    files: createVaultFiles(root, lock),
    readOnly,
    logger: silentLogger(),
    now: () => new Date(clock),
    owner,
  });
}

async function begin(store: RecordStore, title: string): Promise<string> {
  const record = await store.update(undefined, 'start_draft_generation', (r) => void (r.title = title));
  clock += 1000;
  return record?.workflow_id as string;
}

describe('workflow records', () => {
  it("defaults to this server's latest open record, then (after a restart) the vault's latest, with a warning", async () => {
    const a = server('aaaa');
    const b = server('bbbb');
    const first = await begin(a, 'A1');
    const other = await begin(b, 'B1');
    const second = await begin(a, 'A2');
    expect(await a.resolve()).toMatchObject({
      by: 'this_server',
      record: { workflow_id: second, title: 'A2' },
      warnings: [],
    });
    // b's own record wins for b although a wrote later: two servers on one vault keep apart.
    expect(await b.resolve()).toMatchObject({ by: 'this_server', record: { workflow_id: other } });
    // The id wins over every default.
    expect(await a.resolve(first)).toMatchObject({ by: 'workflow_id', record: { title: 'A1' } });

    const restarted = server('cccc');
    const found = await restarted.resolve();
    expect(found).toMatchObject({ by: 'latest_in_vault', record: { workflow_id: second } });
    expect(found.warnings[0]).toMatch(
      /^Continuing workflow .* found in the vault \(stage draft, last step start_draft_generation, 0 min ago, title "A2"\)\. If that is not your card, pass workflow_id/,
    );
    // Writing to it adopts it: from then on it is this server's own.
    await restarted.update(found, 'title_thinker', (r) => void (r.context_summary = 'x'));
    expect(await restarted.resolve()).toMatchObject({
      by: 'this_server',
      record: { workflow_id: second, context_summary: 'x' },
    });
  });

  it('a closed or stale record is no default, though its workflow_id still names it; old ones are pruned', async () => {
    const a = server('aaaa');
    const saved = await begin(a, 'saved');
    await a.update(await a.resolve(saved), 'save_card', (r) => void (r.status = 'saved'));
    expect((await a.resolve()).record).toBeUndefined();

    const stale = await begin(a, 'stale');
    clock += DEFAULT_WINDOW_MS + 1;
    expect(await a.resolve()).toEqual({ warnings: [] });
    expect(await a.resolve(stale)).toMatchObject({ record: { title: 'stale' } });

    clock += PRUNE_AFTER_MS;
    const fresh = await begin(a, 'fresh');
    expect((await fs.readdir(path.join(root, RECORDS_DIR))).filter((f) => f.endsWith('.json'))).toEqual([
      `${fresh}.json`,
    ]);
    expect((await a.resolve(stale)).warnings[0]).toMatch(/names no workflow record in this vault/);
  });

  it('an unknown, malformed or hostile workflow_id and an unreadable record file answer without a record', async () => {
    const a = server('aaaa');
    expect(await a.resolve('../../etc/passwd')).toEqual({
      warnings: [expect.stringMatching(/names no workflow record/)],
    });
    await fs.mkdir(path.join(root, RECORDS_DIR), { recursive: true });
    await fs.writeFile(path.join(root, RECORDS_DIR, '20251021-183000-abcdef.json'), '{ not json');
    expect(await a.resolve()).toEqual({ warnings: [] });
    expect((await a.resolve('20251021-183000-abcdef')).record).toBeUndefined();
  });

  it('writes nothing on a read-only vault', async () => {
    const ro = server('aaaa', true);
    expect(await ro.update(undefined, 'start_draft_generation', () => {})).toBeUndefined();
    await expect(fs.access(path.join(root, RECORDS_DIR))).rejects.toThrow();
  });

  it('two steps writing one record at once both land (compare-and-swap, re-applied)', async () => {
    const a = server('aaaa');
    const id = await begin(a, 'T');
    const seen = await a.resolve(id);
    await Promise.all([
      a.update(seen, 'title_thinker', (r) => void (r.context_summary = 'summary')),
      a.update(seen, 'content_thinker', (r) => void (r.key_points = ['k'])),
    ]);
    expect((await a.resolve(id)).record).toMatchObject({
      context_summary: 'summary',
      key_points: ['k'],
      steps: ['start_draft_generation', expect.any(String), expect.any(String)],
    });
  });
});
