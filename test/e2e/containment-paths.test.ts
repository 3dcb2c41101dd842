/**
 * Issue 19: the hostile-path battery. Every tool of every profile, every argument that names a
 * path, id, type, vault, file or title, gets each of 100+ hostile payloads (traversal, absolute,
 * encoded, NUL, backslash, unicode look-alikes, long names, reserved names, symlinks and hard
 * links out, the metadata folder, .git/). Over a real stdio MCP client: 0 reads or writes
 * outside the vault, 0 crashes (the server answers after every tool).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

const SECRET = 'OUTSIDE-SECRET-zq81';
const TARGETED =
  /id|identifier|path|type|vault|file|name|dir|folder|title|from|to$|target|template|note|source|destination/i;

function payloads(outside: string): string[] {
  const base = [
    '../outside/secret.md',
    '../../outside/secret.md',
    '../../../../../../etc/passwd',
    '/etc/passwd',
    `${outside}/secret.md`,
    outside,
    'general/../../outside/secret.md',
    'general/./../../outside/secret.md',
    'general//..//..//outside/secret.md',
    './../outside/secret.md',
    '..\\outside\\secret.md',
    'general\\..\\..\\outside\\secret.md',
    '%2e%2e%2foutside%2fsecret.md',
    '%2e%2e/%2e%2e/etc/passwd',
    '..%2Foutside%2Fsecret.md',
    '..%252f..%252foutside',
    '..;/outside/secret.md',
    'a\u0000b',
    'general/x.md\u0000.txt',
    '\u0000',
    'general/%00.md',
    '\u2025/outside/secret.md',
    '\uff0e\uff0e/outside/secret.md',
    '..\u2215outside\u2215secret.md',
    '..\u29f8outside',
    '\u200b../outside/secret.md',
    '\u202e../outside',
    '🙂/../../outside/secret.md',
    'C:\\Windows\\win.ini',
    'C:/Windows/win.ini',
    'c:relative',
    '\\\\server\\share\\x',
    '//server/share',
    '~/secret.md',
    '~',
    '.',
    '..',
    '...',
    '',
    ' ',
    '/',
    '//',
    '\r\n',
    'general/\nx.md',
    'x'.repeat(300),
    `${'a/'.repeat(200)}x`,
    'é'.repeat(300),
    `${'x'.repeat(5000)}.md`,
    'con',
    'general/con.md',
    'aux.md',
    'NUL',
    'com1',
    'lpt1.md',
    'general/trailing.',
    'general/trailing .md',
    'general/name..md',
    'link-out.md',
    'general/link-out.md',
    'general/hard-out.md',
    'linkdir/secret.md',
    'general/linkdir/secret.md',
    'linkdir',
    '.flint-note/notekernel.db',
    '.flint-note/config.yml',
    '.flint-note',
    '.notekernel/notekernel.db',
    '.git/config',
    '.git/HEAD',
    '.git',
    'general/.hidden.md',
    '_description.md',
    'general/_description.md',
    'file:///etc/passwd',
    'http://example.com/x',
    'general/*',
    'general/?.md',
    'general/<x>.md',
    'general/|x.md',
    'general/"x".md',
    'general/x:y.md',
    `general/${'\u0301'.repeat(50)}.md`,
  ];
  const out = new Set<string>();
  for (const p of base) {
    out.add(p);
    out.add(`${p}.md`);
  }
  return [...out];
}

function fill(schema: { type?: string | string[] }, name: string): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return name === 'content_hash' ? 'sha256:0' : 'x';
}

function snapshot(dir: string): string {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const stats = fs.lstatSync(full);
    out.push(
      `${path.relative(dir, full)}:${stats.size}:${stats.mtimeMs}:${stats.isFile() ? fs.readFileSync(full, 'utf8') : ''}`,
    );
  }
  return out.sort().join('\n');
}

const sandboxes: string[] = [];
const sessions: StdioSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await Promise.all(sandboxes.map(removeDir));
});

describe.each(['flint', 'zettelkasten', 'agent-memory', 'obsidian'])('hostile paths: %s', (profile) => {
  it('every tool and path-like argument: 0 reads or writes outside the vault, 0 crashes', async () => {
    const sandbox = await tempDir('nk-e2e-paths-');
    sandboxes.push(sandbox);
    const vault = path.join(sandbox, 'vault');
    const outside = path.join(sandbox, 'outside');
    fs.mkdirSync(path.join(vault, 'general'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.md'), `---\ntitle: Secret\n---\n\n${SECRET}\n`);
    fs.writeFileSync(path.join(outside, 'secret2.md'), `# Secret two\n\n${SECRET}\n`);
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(vault, 'general', 'link-out.md'));
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(vault, 'link-out.md'));
    fs.symlinkSync(outside, path.join(vault, 'linkdir'));
    fs.symlinkSync(outside, path.join(vault, 'general', 'linkdir'));
    fs.linkSync(path.join(outside, 'secret2.md'), path.join(vault, 'general', 'hard-out.md'));
    fs.writeFileSync(path.join(vault, 'general', 'inside.md'), '---\ntitle: Inside\n---\n\nbody\n');
    const before = snapshot(outside);
    const session = await connectStdio(['serve', '--profile', profile, '--vault', vault], {
      NOTEKERNEL_CONFIG_DIR: path.join(sandbox, 'config'),
    });
    sessions.push(session);
    const { tools } = await session.client.listTools();
    const list = payloads(outside);
    expect(list.length).toBeGreaterThanOrEqual(80);
    let calls = 0;
    for (const tool of tools) {
      const props = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string }>;
      const required = new Set((tool.inputSchema.required ?? []) as string[]);
      const base: Record<string, unknown> = {};
      for (const [name, schema] of Object.entries(props)) if (required.has(name)) base[name] = fill(schema, name);
      // A vault folder beside this one is allowed (allowed roots); it is the one thing created outside.
      if (tool.name === 'create_vault') base.path = 'sibling-vault';
      // create_vault's folder has its own test (allowed roots); its other fields are attacked here.
      const targets = Object.entries(props).filter(
        ([name, schema]) =>
          (schema.type === 'string' || schema.type === undefined) &&
          TARGETED.test(name) &&
          !(tool.name === 'create_vault' && name === 'path'),
      );
      for (const [field] of targets) {
        for (const payload of list) {
          calls++;
          let text = '';
          try {
            const result = await session.client.callTool({ name: tool.name, arguments: { ...base, [field]: payload } });
            text = JSON.stringify(result.content);
          } catch (err) {
            text = String(err);
            // Input refused by the schema is an MCP error, not a crash; a closed connection is.
            expect(text, `${tool.name}.${field}=${JSON.stringify(payload).slice(0, 80)}`).not.toMatch(
              /Connection closed|not connected/i,
            );
          }
          expect(text, `${tool.name}.${field} leaked outside content`).not.toContain(SECRET);
          expect(text, `${tool.name}.${field} leaked /etc/passwd`).not.toMatch(/root:x:0:0/);
        }
      }
      // The server still answers after each tool's battery.
      expect((await session.client.listTools()).tools.length).toBe(tools.length);
    }
    console.info(`${profile}: ${tools.length} tools, ${list.length} payloads, ${calls} calls`);
    expect(snapshot(outside)).toBe(before);
    // Nothing appeared beside the vault but the registry's config folder and create_vault's sibling.
    const expected = ['config', 'outside', 'sibling-vault', 'vault'].filter((n) =>
      fs.existsSync(path.join(sandbox, n)),
    );
    expect(fs.readdirSync(sandbox).sort()).toEqual(expected);
  }, 300_000);
});
