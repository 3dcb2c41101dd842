/**
 * The retrieval bench's two public question sets (shared/bench-data/README.md), turned into notes
 * and questions the way the leading peer (basic-memory's benchmarks) does: LoCoMo one note per
 * chat session with the audit's evidence corrections applied, SQuAD one note per paragraph.
 */
import fs from 'node:fs';
import path from 'node:path';

/** A note to write: `id` is what a hit must map back to. */
export interface Doc {
  id: string;
  title: string;
  body: string;
}

export interface Question {
  text: string;
  /** Ids of the notes that answer it. */
  truth: string[];
  /** LoCoMo: the question's conversation (`locomo-cNN`), to count hits from another one. */
  group?: string;
}

export interface Dataset {
  name: 'LoCoMo' | 'SQuAD';
  docs: Doc[];
  questions: Question[];
  /** Questions left out because their evidence names no session. */
  skipped: number;
  /** The note id a tool's field (title, file name, path, key) names, if any. */
  resolve(candidate: string): string | undefined;
  /** The group of a note id (LoCoMo's conversation), for the wrong-conversation share. */
  groupOf?(id: string): string | undefined;
}

/** `shared/bench-data/` beside the repository: BENCH_DATA_DIR, else walking up from the repo root. */
export function findBenchData(repoRoot: string): string | undefined {
  const given = process.env.BENCH_DATA_DIR;
  if (given) return fs.existsSync(path.join(given, 'locomo-dev.json')) ? given : undefined;
  for (let dir = repoRoot; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'bench-data');
    if (fs.existsSync(path.join(candidate, 'locomo-dev.json'))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'));

type Turn = { speaker?: string; text?: string };
type Qa = { question: string; evidence?: unknown[] };
type Conversation = { conversation: Record<string, unknown>; qa: Qa[] };
type Correction = { question_id: string; question: string; correct_evidence: string[] };

const LOCOMO_ID = /locomo-c\d{2}-s\d{2}/;
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * LoCoMo with the corrections: `locomo_<conversation>_qa<n>` names the n-th question (from 0) of
 * the conversation in file order; its text must match, so a misaligned file fails loudly. An
 * evidence id names its session by a leading `D<n>:`, the peer's rule: of the dev file's three
 * malformed ids, `D8:6; D9:17` counts session 8 only and `D`, `D:11:26` none.
 */
export function loadLocomo(dir: string): Dataset {
  const conversations = readJson(path.join(dir, 'locomo-dev.json')) as Conversation[];
  const corrections = new Map(
    (readJson(path.join(dir, 'locomo-dev-corrections.json')) as Correction[]).map((c) => [c.question_id, c]),
  );
  const docs: Doc[] = [];
  const questions: Question[] = [];
  let skipped = 0;
  let applied = 0;
  conversations.forEach((conv, c) => {
    const group = `locomo-c${pad(c)}`;
    const sessions = Object.keys(conv.conversation)
      .map((key) => /^session_(\d+)$/.exec(key)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    for (const s of sessions) {
      const id = `${group}-s${pad(s)}`;
      const date = String(conv.conversation[`session_${s}_date_time`] ?? '');
      const turns = (conv.conversation[`session_${s}`] as Turn[])
        .filter((t) => (t.text ?? '').trim() !== '')
        .map((t) => `- **${t.speaker ?? 'unknown'}:** ${(t.text ?? '').trim()}`);
      docs.push({
        id,
        title: `${id} (${date})`,
        body: `# Chat session at ${date}\n\n## Conversation\n\n${turns.join('\n')}\n`,
      });
    }
    conv.qa.forEach((qa, q) => {
      const correction = corrections.get(`locomo_${c}_qa${q}`);
      if (correction && correction.question !== qa.question)
        throw new Error(`correction locomo_${c}_qa${q} is for "${correction.question}", the file has "${qa.question}"`);
      if (correction) applied++;
      const evidence = correction ? correction.correct_evidence : (qa.evidence ?? []);
      const truth = new Set<string>();
      for (const e of evidence) {
        const session = typeof e === 'string' ? /^D(\d+):/.exec(e)?.[1] : undefined;
        if (session !== undefined && sessions.includes(Number(session))) truth.add(`${group}-s${pad(Number(session))}`);
      }
      if (truth.size === 0) skipped++;
      else questions.push({ text: qa.question, truth: [...truth], group });
    });
  });
  if (applied !== corrections.size)
    throw new Error(`${corrections.size - applied} LoCoMo corrections name no question of the file`);
  return {
    name: 'LoCoMo',
    docs,
    questions,
    skipped,
    resolve: (candidate) => LOCOMO_ID.exec(candidate.toLowerCase())?.[0],
    groupOf: (id) => id.slice(0, 'locomo-cNN'.length),
  };
}

/** A title or file name reduced to lower-case words joined by `-`: `Sky_(United_Kingdom) 3.md` → `sky-united-kingdom-3`. */
export function slug(text: string): string {
  return path
    .basename(text)
    .replace(/\.md$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

type Squad = {
  data: Array<{ title: string; paragraphs: Array<{ context: string; qas: Array<{ question: string }> }> }>;
};

/** SQuAD: note `<article> <n>` (n from 1) per paragraph, each question answered by its own paragraph. */
export function loadSquad(dir: string): Dataset {
  const squad = readJson(path.join(dir, 'squad-dev-subset.json')) as Squad;
  const docs: Doc[] = [];
  const questions: Question[] = [];
  for (const article of squad.data) {
    article.paragraphs.forEach((paragraph, p) => {
      const id = `${article.title} ${p + 1}`;
      docs.push({ id, title: id, body: `${paragraph.context}\n` });
      for (const qa of paragraph.qas) questions.push({ text: qa.question, truth: [id] });
    });
  }
  // Tools answer with titles, file names or slugged keys: all of them reduce to the same slug.
  const bySlug = new Map(docs.map((d) => [slug(d.id), d.id]));
  if (bySlug.size !== docs.length) throw new Error('two SQuAD paragraphs share a slug: hits could not be told apart');
  return { name: 'SQuAD', docs, questions, skipped: 0, resolve: (candidate) => bySlug.get(slug(candidate)) };
}
