/**
 * What the CLI prints, as a person and as a script read it: readable text by default (aligned
 * lines, counts, durations, colour only when asked for a terminal), the JSON of before with
 * --json, one readable error line on stderr, readable or JSON log lines.
 */
import { execFile } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { callTool, connectStdio } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[\d+m/;
const PLAIN = { NO_COLOR: '', FORCE_COLOR: '' };

let root: string;
let vault: string;
beforeAll(async () => {
  root = await tempDir('nk-e2e-output-');
  vault = path.join(root, 'vault');
  expect((await runCli(['init', vault], { env: PLAIN })).code).toBe(0);
});
afterAll(async () => {
  await removeDir(root);
});

const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { env: { ...PLAIN, ...env } });

/** util-linux `script` runs the command on a pseudo-terminal, as a person's shell would. */
const SCRIPT = ['/usr/bin/script', '/bin/script'].find((file) => fsSync.existsSync(file));

async function inTerminal(args: string[], env: Record<string, string> = {}): Promise<string> {
  const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  const { stdout } = await promisify(execFile)(SCRIPT as string, ['-qec', command, '/dev/null'], {
    env: { ...process.env, ...PLAIN, TERM: 'xterm', ...env },
  });
  return stdout;
}

describe('readable output by default, JSON with --json', () => {
  it('init: the vault, the profile and its note types on aligned lines', async () => {
    const text = await cli(['init', vault]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`vault ready: ${vault}`);
    expect(text.stdout).toMatch(/^ {2}profile: {4}flint$/m);
    expect(text.stdout).toMatch(/^ {2}note types: daily, general, goals, projects, reading, todos$/m);
    expect(text.stdout).not.toMatch(ANSI);
    const json = await cli(['init', vault, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      vault,
      profile: 'flint',
      types: ['daily', 'general', 'goals', 'projects', 'reading', 'todos'],
    });
  });

  it('index: counts and the duration; --json is the refresh report', async () => {
    const text = await cli(['index', '--vault', vault]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/index up to date for .* in \d+ ms/);
    expect(text.stdout).toMatch(/^ {2}notes seen: 1$/m);
    expect(text.stdout).toMatch(/^ {2}skipped: {4}0$/m);
    const json = JSON.parse((await cli(['index', '--vault', vault, '--json'])).stdout) as Record<string, unknown>;
    expect(Object.keys(json).sort()).toEqual(['indexed', 'ms', 'removed', 'scanned', 'skipped']);
  });

  it('call: a note as its header then its text, a list as a table with a count', async () => {
    const note = await cli(['call', 'get_note', '{"identifier":"general/welcome-to-your-vault.md"}', '--vault', vault]);
    expect(note.code).toBe(0);
    expect(note.stdout.split('\n')[0]).toBe('Welcome to your vault');
    expect(note.stdout).toMatch(/^id: +general\/welcome-to-your-vault\.md$/m);
    expect(note.stdout).toMatch(/^content_hash: +sha256:/m);
    expect(note.stdout).toContain('\n\n# Welcome to your vault');

    const list = await cli(['call', 'list_notes_by_type', '{"type":"general"}', '--vault', vault]);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id +title +type/);
    expect(lines[1]).toMatch(/^general\/welcome-to-your-vault\.md +Welcome to your vault +general/);
    expect(lines.at(-1)).toBe('1 item');

    const search = await cli(['call', 'search_notes', '{"query":"vault"}', '--vault', vault]);
    expect(search.stdout).toMatch(/^results \(1 item\)$/m);
    expect(search.stdout).toMatch(/^total: +1$/m);

    const json = await cli(['call', 'list_notes_by_type', '{"type":"general"}', '--vault', vault, '--json']);
    expect((JSON.parse(json.stdout) as Array<{ id: string }>)[0]?.id).toBe('general/welcome-to-your-vault.md');
  });

  it('tools: one line per tool and a count; --json keeps the schemas', async () => {
    const text = await cli(['tools', '--vault', vault]);
    expect(text.stdout).toMatch(/^tool +description$/m);
    expect(text.stdout).toMatch(/^create_note +\S/m);
    expect(text.stdout).toMatch(/^\d+ tools \(--json prints their input schemas\)$/m);
    const json = JSON.parse((await cli(['tools', '--vault', vault, '--json'])).stdout) as Array<{
      name: string;
      inputSchema: unknown;
    }>;
    expect(json.find((t) => t.name === 'create_note')?.inputSchema).toBeTruthy();
  });

  it('vault commands: a table of vaults with the current one marked', async () => {
    const env = { NOTEKERNEL_CONFIG_DIR: path.join(root, 'registry') };
    const empty = await cli(['list'], env);
    expect(empty.stdout).toContain('no vaults registered');
    expect((await cli(['create', 'work', 'Work', path.join(root, 'work')], env)).stdout).toMatch(
      /created and registered vault work\n {2}id: +work\n {2}name: +Work/,
    );
    expect((await cli(['switch', 'work'], env)).stdout).toContain('current vault is now work');
    const listed = await cli(['list'], env);
    expect(listed.stdout).toMatch(/^ {3}id +name +path$/m);
    expect(listed.stdout).toMatch(/^\* {2}work +Work +\//m);
    expect(listed.stdout).toMatch(/^1 vault; \* marks the current one$/m);
    expect((await cli(['current'], env)).stdout).toMatch(/^current vault work$/m);
    expect(JSON.parse((await cli(['list', '--json'], env)).stdout)).toMatchObject({
      vaults: [{ id: 'work', is_current: true }],
      current_vault: 'work',
    });
    expect((await cli(['remove', 'work'], env)).stdout).toContain(
      'removed vault work from the registry; its files are kept',
    );
  });

  it('doctor: ok / FAIL lines and a closing verdict', async () => {
    const text = await cli(['doctor', '--vault', vault]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ok {3}index: /m);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('nothing to fix');
  });

  it('colour only when asked for (FORCE_COLOR), never with NO_COLOR', async () => {
    const forced = await cli(['init', vault], { FORCE_COLOR: '1' });
    expect(forced.stdout).toMatch(ANSI);
    const refused = await cli(['init', vault], { FORCE_COLOR: '1', NO_COLOR: '1' });
    expect(refused.stdout).not.toMatch(ANSI);
  });
});

describe('errors', () => {
  it('one readable line on stderr and exit 1; with --json the error object on stdout too', async () => {
    const text = await cli(['call', 'get_note', '{"identifier":"general/missing.md"}', '--vault', vault]);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^notekernel: not_found: .*missing/)]);
    const json = await cli(['call', 'get_note', '{"identifier":"general/missing.md"}', '--vault', vault, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: 'not_found' });
  });

  it('a start-up error (bad config) is one line, and a JSON object with --json', async () => {
    const config = path.join(root, 'typo.yaml');
    await fs.writeFile(config, 'profil: flint\n');
    const text = await cli(['tools', '--config', config, '--vault', vault]);
    expect(text.code).toBe(2);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain(
      `notekernel: config_invalid: ${config}: profil: unknown key; did you mean "profile"?`,
    );
    const json = await cli(['tools', '--config', config, '--vault', vault, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: 'config_invalid',
      file: config,
      key: 'profil',
      did_you_mean: 'profile',
    });
  });

  it('arguments that are not JSON: one line, exit 2', async () => {
    const run = await cli(['call', 'get_note', '{nope', '--vault', vault]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^notekernel: validation_failed: arguments are not valid JSON/m);
  });
});

describe('log lines', () => {
  it('are pino JSON when stderr is not a terminal, readable with --log-format pretty or NOTEKERNEL_LOG_FORMAT', async () => {
    const json = await cli(['index', '--vault', vault, '--log-level', 'info']);
    const record = JSON.parse(json.stderr.split('\n').find((l) => l.includes('index ready')) ?? '{}') as {
      level?: number;
      msg?: string;
    };
    expect(record).toMatchObject({ level: 30, msg: 'index ready' });
    const pretty = await cli(['index', '--vault', vault, '--log-level', 'info', '--log-format', 'pretty']);
    expect(pretty.stderr).toMatch(/^\d\d:\d\d:\d\d INFO {2}index ready {2}.*scanned=1/m);
    const byEnv = await cli(['index', '--vault', vault, '--log-level', 'info'], { NOTEKERNEL_LOG_FORMAT: 'pretty' });
    expect(byEnv.stderr).toMatch(/INFO {2}index ready/);
    expect(byEnv.stderr).not.toMatch(/^\{/m);
  });

  it.skipIf(!SCRIPT)(
    'are readable and coloured on a terminal with no flag; NO_COLOR keeps them readable and plain',
    async () => {
      const screen = await inTerminal(['index', '--vault', vault, '--log-level', 'info']);
      expect(screen).toMatch(ANSI);
      expect(screen).toMatch(/INFO .*index ready/);
      expect(screen).not.toContain('{"level"');
      const plain = await inTerminal(['index', '--vault', vault, '--log-level', 'info'], { NO_COLOR: '1' });
      expect(plain).not.toMatch(ANSI);
      expect(plain).toMatch(/^\d\d:\d\d:\d\d INFO {2}index ready/m);
      expect(plain).toMatch(/index up to date for .* in \d+ ms/);
    },
  );

  it.skipIf(!SCRIPT)('index shows a progress bar on a terminal and none when its output is piped', async () => {
    await fs.rm(path.join(vault, '.flint-note'), { recursive: true, force: true });
    const screen = await inTerminal(['index', '--vault', vault]);
    expect(screen).toMatch(/indexing notes \[[^\]]*\] \d+% \| \d+\/1/);
    expect(screen).toMatch(/index up to date for .* in \d+ ms/);
    await fs.rm(path.join(vault, '.flint-note'), { recursive: true, force: true });
    const piped = await cli(['index', '--vault', vault]);
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toMatch(/indexing notes/);
  });

  it('never reach stdout in stdio serve mode, readable or not', async () => {
    const session = await connectStdio(['serve', '--vault', vault, '--log-format', 'pretty']);
    try {
      const answer = await callTool(session.client, 'list_note_types', {});
      expect(answer.isError).toBe(false);
      expect(session.stderr()).toMatch(/INFO {2}/);
    } finally {
      await session.close();
    }
  });
});
