/**
 * The sandbox process's program (plain CommonJS, run with `node -e`, so it works the same from
 * the TypeScript sources under test and from dist/). It opens its own read-only connection and
 * runs one job at a time: a user's SELECT, or a regex scan over the notes.
 *
 * Why a process and not a worker thread: SQLite runs a whole aggregate or recursive CTE inside
 * one native call, which neither Worker.terminate() nor anything in JavaScript can interrupt
 * (better-sqlite3 is built without a progress handler and does not expose sqlite3_interrupt). A
 * process can always be killed. A watchdog thread inside also kills the process when a job
 * overruns its deadline or when the parent has gone, so nothing is ever left spinning.
 */
export const SANDBOX_SOURCE = `
'use strict';
const { Worker } = require('node:worker_threads');
const Database = require(process.argv[1]);
const deadline = new Int32Array(new SharedArrayBuffer(4));
const started = Date.now();
// The RSS cap: checked every 50 ms (a sort grows ~1 GB/s at most here), reported on stderr so
// the server can say why the process was stopped.
const maxRss = Number(process.argv[3]) || 512 * 1024 * 1024;
const watchdog = new Worker(
  "const { workerData: d } = require('node:worker_threads');" +
  "let tick = 0;" +
  "setInterval(() => {" +
  // fs.writeSync: a worker's process.stderr goes through the main thread, busy in SQLite.
  " if (process.memoryUsage.rss() > d.maxRss) { require('node:fs').writeSync(2, ' nk-sandbox: memory cap '); process.kill(d.pid, 'SIGKILL'); }" +
  " if (++tick % 5) return; const due = Atomics.load(d.deadline, 0);" +
  " if ((due > 0 && Date.now() - d.started > due) || process.ppid !== d.ppid) process.kill(d.pid, 'SIGKILL'); }, 50);",
  { eval: true, workerData: { deadline, started, ppid: process.ppid, pid: process.pid, maxRss } },
);
watchdog.unref();
process.on('disconnect', () => process.exit(0));

let db;
try {
  db = new Database(process.argv[2], { readonly: true, fileMustExist: true });
  db.pragma('query_only = ON');
  db.pragma('busy_timeout = 5000');
  // Sorts, DISTINCT and temp b-trees stay in memory, never temp files outside the vault (an
  // ORDER BY spill wrote 538 MB to the system temp folder). That memory is bounded by the
  // watchdog's RSS cap: SQLite's own heap limits are inert here (better-sqlite3 is built with
  // SQLITE_DEFAULT_MEMSTATUS=0, which turns them off).
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -16384');
} catch (err) {
  process.send({ fatal: String(err && err.message || err) });
  process.exit(1);
}

function fail(id, kind, message, reason) {
  process.send({ id, ok: false, kind, message, reason });
}

function runSql(job) {
  let stmt;
  try {
    stmt = db.prepare(job.sql);
  } catch (err) {
    const message = String(err && err.message || err);
    if (message.indexOf('more than one statement') !== -1) return fail(job.id, 'refused', message, 'multiple_statements');
    return fail(job.id, 'sql', message);
  }
  if (!stmt.readonly) return fail(job.id, 'refused', 'the statement would write', 'write');
  if (!stmt.reader) return fail(job.id, 'refused', 'the statement returns no rows', 'not_select');
  // Exact integers: the server turns them into numbers when they fit, text when they do not.
  stmt.safeIntegers(true);
  const rows = [];
  let bytes = 0;
  try {
    const args = job.params === undefined ? [] : Array.isArray(job.params) ? job.params : [job.params];
    for (const row of stmt.iterate(...args)) {
      if (rows.length >= job.maxRows) break;
      for (const key in row) bytes += sizeOf(row[key]);
      if (bytes > job.maxBytes) return fail(job.id, 'too_large', 'the rows exceed ' + job.maxBytes + ' bytes');
      rows.push(row);
    }
  } catch (err) {
    return fail(job.id, 'sql', String(err && err.message || err));
  }
  process.send({ id: job.id, ok: true, rows });
}

function sizeOf(value) {
  if (typeof value === 'string') return value.length * 2;
  if (value && typeof value.length === 'number') return value.length;
  return 8;
}

function count(re, text, cap) {
  if (!text) return 0;
  re.lastIndex = 0;
  let n = 0;
  let m;
  while (n < cap && (m = re.exec(text)) !== null) {
    n++;
    if (m[0].length === 0) re.lastIndex++;
  }
  return n;
}

function excerpt(re, text, chars) {
  re.lastIndex = 0;
  const m = re.exec(text);
  if (!m) return undefined;
  let from = Math.max(0, m.index - chars);
  let to = Math.min(text.length, m.index + m[0].length + chars);
  while (from > 0 && from < m.index && text[from - 1] !== ' ' && text[from - 1] !== '\\n') from++;
  while (to < text.length && to > m.index + m[0].length && text[to] !== ' ' && text[to] !== '\\n') to--;
  const hit = m[0].slice(0, 200);
  const flat = (s) => s.split('\\n').join(' ');
  return ((from > 0 ? '…' : '') + flat(text.slice(from, m.index)) + '<mark>' + flat(hit) + '</mark>' +
    flat(text.slice(m.index + m[0].length, to)) + (to < text.length ? '…' : '')).trim();
}

function runRegex(job) {
  let re;
  try {
    re = new RegExp(job.source, job.flags + 'g');
  } catch (err) {
    return fail(job.id, 'regex', String(err && err.message || err));
  }
  const found = [];
  try {
    const scan = db.prepare('SELECT n.id AS id, n.title AS title, n.content AS content FROM notes n WHERE ' + job.where + ' ORDER BY n.updated DESC, n.id');
    if (!scan.readonly) return fail(job.id, 'refused', 'the statement would write', 'write');
    for (const row of scan.iterate(job.params)) {
      const n = count(re, row.title, job.maxPerNote) + count(re, row.content, job.maxPerNote);
      if (n > 0) found.push({ id: row.id, score: n });
    }
    // Stable sort: equal counts keep the most recent first.
    found.sort((a, b) => b.score - a.score);
    const page = found.slice(job.offset, job.offset + job.limit);
    const one = db.prepare('SELECT title, content FROM notes WHERE id = ?');
    for (const hit of page) {
      const row = one.get(hit.id) || { title: '', content: '' };
      hit.snippet = excerpt(re, row.content || '', job.snippetChars) || excerpt(re, row.title || '', job.snippetChars) || '';
    }
    process.send({ id: job.id, ok: true, total: found.length, hits: page });
  } catch (err) {
    return fail(job.id, 'sql', String(err && err.message || err));
  }
}

process.on('message', (job) => {
  Atomics.store(deadline, 0, Date.now() - started + job.deadlineMs);
  try {
    if (job.kind === 'sql') runSql(job);
    else if (job.kind === 'regex') runRegex(job);
    else fail(job.id, 'internal', 'unknown job ' + job.kind);
  } finally {
    Atomics.store(deadline, 0, 0);
  }
});
`;
