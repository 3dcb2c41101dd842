/**
 * `npm run bench`: generates vaults under .bench-data/ (or BENCH_DIR) and prints each
 * benchmark beside a baseline measured in the same run. BENCH_NOTES scales the vault.
 * BENCH_ONLY picks groups, comma-separated. By default: startup (includes the spawned row and
 * the flint note benches), links, search, git, hybrid (hybrid-search: 10k-note search, model
 * embedding on 1 and 2 threads; HYBRID_BENCH_NOTES, HYBRID_BENCH_EMBED_NOTES), simplenote
 * (notarium: sync, list, persist against the fake Simperium), journal, tools (each profile's
 * tools/list bytes, issue 15), paraphrase (the real model's retrieval of questions that share no
 * word with their notes, its load, no network) and bounds (how soon a refused alias bomb, a stopped
 * query, a hung endpoint answer: the time bounds unit tests do not assert; issue 29) and served (the
 * same for a spawned flint server: a FIFO, an alias bomb, an outside write, a 20 MB call, SQL beside
 * runaways, as the end-to-end tests no longer time them). Only when named:
 * spawned (the spawned start-up row alone), scale (issue 18: cold index with links, first answers
 * after a spawn, the keyword set, titles first, and memory-start), keywords (the keyword set and
 * titles-first rows of scale alone), memory-start (issue 18:
 * agent-memory's initialize and first memory_read on 10,000 entries × 2,000 commits, and memory_search), soak (issue 19: 8 HTTP clients, 10 minutes)
 * and retrieval (recall@5 / recall@10 / MRR of each profile's default search on the public LoCoMo and SQuAD
 * questions in ../shared/bench-data, as the leading peer measures them; RETRIEVAL_SAMPLE, RETRIEVAL_PROFILES,
 * BENCH_DATA_DIR: see retrieval.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../support/cli.js';
import { benchKernelStartup } from './kernel-startup.js';
import { benchLinks } from './links.js';
import { benchSearch } from './search.js';
import { benchHybridSearch } from './hybrid-search.js';
import { benchGitTimestamps } from './git-timestamps.js';
import { benchJournal } from './journal.js';
import { benchSpawnedStartupAlone } from './spawned-startup.js';
import { benchSimplenote } from './simplenote-sync.js';
import { benchKeywords, benchScale } from './scale.js';
import { benchMemoryStartup } from './memory-startup.js';
import { benchMemorySearch } from './memory-search.js';
import { benchSoak } from './soak.js';
import { benchToolList } from './tool-list.js';
import { benchRetrieval } from './retrieval.js';
import { benchParaphrase } from './paraphrase.js';
import { benchTimeBounds } from './time-bounds.js';
import { benchServedBounds } from './served-bounds.js';
import { benchPostgresScale } from './postgres-scale.js';
import { printTable, type BenchRow } from './stats.js';

const workDir = process.env.BENCH_DIR ?? path.join(REPO_ROOT, '.bench-data');
fs.mkdirSync(workDir, { recursive: true });
const notes = Number.parseInt(process.env.BENCH_NOTES ?? '10000', 10);

const rows: BenchRow[] = [];
console.log(`notekernel benchmarks: ${notes} notes, node ${process.version}, data in ${workDir}`);
const only = new Set(
  (process.env.BENCH_ONLY ?? 'startup,links,search,git,hybrid,simplenote,journal,tools,paraphrase,bounds,served').split(
    ',',
  ),
);
if (only.has('startup')) rows.push(...(await benchKernelStartup(workDir, notes)));
if (only.has('spawned')) rows.push(...(await benchSpawnedStartupAlone(workDir, notes)));
if (only.has('links')) rows.push(...(await benchLinks(workDir, notes)));
if (only.has('search')) rows.push(...(await benchSearch(workDir, { large: process.env.BENCH_LARGE === '1' })));
if (only.has('git')) rows.push(...(await benchGitTimestamps(workDir)));
if (only.has('hybrid')) rows.push(...(await benchHybridSearch()));
if (only.has('simplenote')) rows.push(...(await benchSimplenote(notes)));
if (only.has('journal')) rows.push(...(await benchJournal(workDir)));
if (only.has('tools')) rows.push(...(await benchToolList()));
if (only.has('paraphrase')) rows.push(...(await benchParaphrase()));
if (only.has('bounds')) rows.push(...(await benchTimeBounds(workDir)));
if (only.has('served')) rows.push(...(await benchServedBounds(workDir)));
if (only.has('soak')) rows.push(...(await benchSoak(workDir)));
if (only.has('scale')) rows.push(...(await benchScale(workDir, { large: process.env.BENCH_LARGE === '1' })));
if (only.has('keywords')) rows.push(...(await benchKeywords(workDir)));
if (only.has('retrieval')) rows.push(...(await benchRetrieval(workDir)));
if (only.has('postgres')) rows.push(...(await benchPostgresScale(workDir)));
if (only.has('scale') || only.has('memory-start'))
  rows.push(...(await benchMemoryStartup(workDir)), await benchMemorySearch(workDir));
printTable(rows);
if (process.env.BENCH_STRICT && rows.some((r) => !r.pass)) process.exitCode = 1;
