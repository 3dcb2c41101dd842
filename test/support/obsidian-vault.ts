/**
 * An Obsidian vault as people have them: nested folders with spaces and capitals, unicode names,
 * notes with and without frontmatter, [[wikilinks]] by note name (with aliases and headings), and
 * the tool folders that are not notes (.obsidian/, .trash/) holding text that must never be read.
 */
import fs from 'node:fs';
import path from 'node:path';

export const TOOL_FOLDER_SECRET = 'TOOL-FOLDER-SECRET-7731';

export const OBSIDIAN_NOTES: Record<string, string> = {
  'Projects/Project Alpha.md':
    '---\n# kept as written\ntags: [project, active]\nstatus: active\nDate: "[[2024-03-01]]"\nowner:   Ada   # the lead\n---\n\n# Project Alpha\n\nThe alpha launch plan, see [[Weekly Sync]] and [[Ada]].\n',
  'Projects/Active Work/Big Plan.md':
    '---\ntags:\n  - project\n  - planning\ncreated: 2023-11-05\n---\nNo blank line after the fence.\n\nDepends on [[Project Alpha#Goals]].\n',
  'Meetings/Weekly Sync.md':
    'Notes without frontmatter.\r\n\r\nDiscussed [[Project Alpha]] and [[project alpha|the alpha]] and ![[Project Alpha#Goals]].\r\nA [[Missing Note]] too.\r\n',
  'Résumé Ünïcode/Café Crème.md': '---\ntags: [café]\n---\n\nÜber die Crème brûlée, links [[Project Alpha|α]].\n',
  'root note.md': 'A plain note at the root with the token zyxquorble.\n',
  'Maps/_Index.md': '# Index\n\nStart at [[Weekly Sync]].\n',
  'People/Ada.md': '---\ntags: [person]\ncompany: "[[Acme Corp]]"\n---\n\nAda leads [[Project Alpha]].\n',
};

export function writeObsidianVault(vault: string): void {
  for (const [rel, text] of Object.entries(OBSIDIAN_NOTES)) {
    fs.mkdirSync(path.dirname(path.join(vault, rel)), { recursive: true });
    fs.writeFileSync(path.join(vault, rel), text);
  }
  fs.mkdirSync(path.join(vault, '.obsidian', 'plugins'), { recursive: true });
  fs.writeFileSync(path.join(vault, '.obsidian', 'app.json'), `{"secret": "${TOOL_FOLDER_SECRET}"}`);
  fs.writeFileSync(
    path.join(vault, '.obsidian', 'workspace.md'),
    `# Workspace\n\n${TOOL_FOLDER_SECRET} [[Project Alpha]]\n`,
  );
  fs.mkdirSync(path.join(vault, '.trash'));
  fs.writeFileSync(path.join(vault, '.trash', 'Deleted.md'), `${TOOL_FOLDER_SECRET} [[Project Alpha]]\n`);
}

/** Every file under `dir` with its bytes, for "nothing else changed" checks. */
/** Every file below `dir` outside dot-folders (the notes, not the index or the journal), by path. */
export function noteFiles(dir: string): Map<string, string> {
  // Filtered before reading: the dot-folders hold lock and temp files that come and go meanwhile.
  const out = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(dir, path.join(entry.parentPath, entry.name));
    if (entry.isFile() && !rel.split(path.sep).some((p) => p.startsWith('.')))
      out.set(rel, fs.readFileSync(path.join(dir, rel), 'utf8'));
  }
  return out;
}

export function snapshotTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, full), fs.readFileSync(full, 'utf8'));
  }
  return out;
}
