/**
 * Issue 17: what the operation journal (decision 025) costs. Two copies of one generated linked
 * vault are open side by side, one with the journal and one with it detached from the store
 * (the same tools then run unjournalled, as on a store without one); the same operations run on
 * both, interleaved, and the medians are compared (target ≤ 1.3×):
 *  - rename_note of a note with 200 inbound links (title + 200 rewrites), renamed back and forth;
 *  - a 1,000-note batch create_note;
 *  - a type migration: delete_note_type moving 200 notes to another type.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createKernel } from '../../app/index.js';
import { silentLogger } from '../../kernel/logger.js';
import type { Vault } from '../../kernel/vault.js';
import { LINK_INDEX } from '../../plugins/links/service.js';
import { generateLinkedVault, type LinkedVault } from '../support/generate-linked-vault.js';
import { fmt, percentile, time, type BenchRow } from './stats.js';

const RUNS = 11;

export async function benchJournal(workDir: string, count = 2_000): Promise<BenchRow[]> {
  const source = path.join(workDir, `journal-vault-${count}`);
  fs.rmSync(source, { recursive: true, force: true });
  fs.mkdirSync(source, { recursive: true });
  const generated = generateLinkedVault(source, count, { hubInbound: 200 });
  const plainRoot = `${source}-unjournalled`;
  fs.rmSync(plainRoot, { recursive: true, force: true });
  fs.cpSync(source, plainRoot, { recursive: true });
  const kernel = await createKernel({ profile: 'flint', config: {}, logger: silentLogger() });
  try {
    const journalled = await kernel.openVault(source, { id: 'journalled' });
    const plain = await kernel.openVault(plainRoot, { id: 'plain' });
    // Detached: NoteService.applyPlan runs every step the same way, without the plan and close writes.
    (plain.notes.store as { journal?: unknown }).journal = undefined;
    await Promise.all([journalled.resolve(LINK_INDEX).broken(), plain.resolve(LINK_INDEX).broken()]);
    return [
      await renames(journalled, plain, generated),
      await batches(journalled, plain),
      await migrations(journalled, plain),
    ];
  } finally {
    await kernel.close();
  }
}

async function renames(journalled: Vault, plain: Vault, generated: LinkedVault): Promise<BenchRow> {
  const samples = { journalled: [] as number[], plain: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    for (const [which, vault] of [
      ['journalled', journalled],
      ['plain', plain],
    ] as const) {
      const { content_hash } = (await vault.call('get_note', { identifier: generated.hub.id })) as {
        content_hash: string;
      };
      const renamed = await time(() =>
        vault.call('rename_note', { identifier: generated.hub.id, new_title: `Central Hub ${run}`, content_hash }),
      );
      const links = (renamed.value as { total_wikilinks_updated: number }).total_wikilinks_updated;
      if (links < 200) throw new Error(`rename rewrote ${links} links in the ${which} vault`);
      samples[which].push(renamed.ms);
    }
  }
  return row('rename_note, 200 inbound links, journalled', samples);
}

async function batches(journalled: Vault, plain: Vault): Promise<BenchRow> {
  const samples = { journalled: [] as number[], plain: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    for (const [which, vault] of [
      ['journalled', journalled],
      ['plain', plain],
    ] as const) {
      const notes = Array.from({ length: 1000 }, (_, i) => ({
        type: 'general',
        title: `Batch ${run} note ${i}`,
        content: `Body of note ${i} in run ${run}.\n`.repeat(10),
      }));
      const created = await time(() => vault.call('create_note', { notes }));
      const made = (created.value as { successful: number }).successful;
      if (made !== 1000) throw new Error(`batch made ${made} of 1,000 notes in the ${which} vault`);
      samples[which].push(created.ms);
    }
  }
  return row('create_note batch of 1,000, journalled', samples);
}

async function migrations(journalled: Vault, plain: Vault): Promise<BenchRow> {
  const samples = { journalled: [] as number[], plain: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    for (const [which, vault] of [
      ['journalled', journalled],
      ['plain', plain],
    ] as const) {
      const type = `migrating-${run}`;
      await vault.call('create_note_type', { type_name: type, description: 'notes about to move' });
      await vault.call('create_note', {
        notes: Array.from({ length: 200 }, (_, i) => ({
          type,
          title: `Moving ${run} note ${i}`,
          content: `Body ${i}, see [[Moving ${run} note ${(i + 1) % 200}]].\n`,
        })),
      });
      const migrated = await time(() =>
        vault.call('delete_note_type', { type_name: type, action: 'migrate', target_type: 'general', confirm: true }),
      );
      const moved = (migrated.value as { result: { notes_affected: number } }).result.notes_affected;
      if (moved !== 200) throw new Error(`migration moved ${moved} of 200 notes in the ${which} vault`);
      samples[which].push(migrated.ms);
    }
  }
  return row('delete_note_type migrate of 200 notes, journalled', samples);
}

function row(bench: string, samples: { journalled: number[]; plain: number[] }): BenchRow {
  const withJournal = percentile(samples.journalled, 50);
  const without = percentile(samples.plain, 50);
  const ratio = withJournal / without;
  return {
    bench,
    value: `p50 ${fmt(withJournal)} of ${RUNS}`,
    target: '≤ 1.3× unjournalled',
    baseline: `same operation unjournalled, p50 ${fmt(without)}`,
    ratio: `${ratio.toFixed(2)}×`,
    pass: ratio <= 1.3,
  };
}
