/**
 * Issue 13's configuration, through the built CLI: seed 003's variables from the environment,
 * `.env` or the profile config, `serve --print-config-vars` (secrets masked), one line naming a
 * missing credential (exit 1), the cache folder rules (XDG_CACHE_HOME, NOTARIUM_CACHE_DIR,
 * --vault DIR), and `serve --profile notarium` with the links and tags plugins added in a config
 * file answering their tools from Simplenote's tag arrays and [[links]].
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSimperium, type FakeSimperium } from '../support/fake-simperium/index.js';
import { callTool, connectStdio } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { envFor } from '../support/simplenote-subject.js';
import { removeDir, tempDir } from '../support/temp.js';

let fake: FakeSimperium;
let work: string;
let env: Record<string, string>;

function cacheFiles(dir: string): string[] {
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true })
        .map(String)
        .filter((f) => /notarium-cache-[0-9a-f]{16}\.sqlite3$/.test(f))
    : [];
}

function note(id: string, content: string, tags: string[]): void {
  fake.bucket().post(id, {
    content,
    tags,
    systemTags: [],
    creationDate: 1700000000,
    modificationDate: 1700000000,
    deleted: false,
    shareURL: '',
    publishURL: '',
  });
}

beforeAll(async () => {
  fake = await startFakeSimperium();
  note('hub', 'Birding hub\nsee [[Heron notes]] and [[Osprey notes]]', ['birds', 'index']);
  note('heron', 'Heron notes\nby the river, back to [[Birding hub]]', ['birds']);
  note('osprey', 'Osprey notes\nnest on the bridge', ['birds', 'raptors']);
  work = await tempDir('nk-e2e-notarium-config-');
  env = { ...(envFor(fake) as Record<string, string>), XDG_CACHE_HOME: path.join(work, 'xdg') };
});

afterAll(async () => {
  await fake?.stop();
  await removeDir(work);
});

describe('notarium configuration', () => {
  it('--print-config-vars lists the effective values with sources, secrets masked', async () => {
    const cwd = path.join(work, 'with-dotenv');
    fs.mkdirSync(cwd);
    fs.writeFileSync(path.join(cwd, '.env'), 'SYNC_INTERVAL_SECONDS=120\nSIMPLENOTE_PASSWORD=from-dotenv\n');
    const run = await runCli(['serve', '--profile', 'notarium', '--print-config-vars'], { env, cwd });
    expect(run.code).toBe(0);
    const line = (name: string) => run.stdout.split('\n').find((l) => l.startsWith(`${name} `)) ?? '';
    expect(line('SIMPLENOTE_USERNAME')).toMatch(/user@example\.com\s+\[environment, required\]/);
    // The environment wins over .env; either way the password is masked.
    expect(line('SIMPLENOTE_PASSWORD')).toMatch(/\*{8}\s+\[environment, required\]/);
    expect(line('SYNC_INTERVAL_SECONDS')).toMatch(/120\s+\[\.env\]/);
    expect(line('API_TIMEOUT_SECONDS')).toMatch(/30\s+\[default\]/);
    expect(line('SIMPERIUM_API_URL')).toContain(fake.url);
    expect(run.stdout).not.toContain('secret-password');
    expect(run.stdout).not.toContain('from-dotenv');
    expect(run.stdout).not.toContain(fake.apiKey);
  });

  it('prints the values as used (clamped, normalised) and honours LOG_LEVEL and LOG_FILE_PATH', async () => {
    const cwd = path.join(work, 'with-logging');
    fs.mkdirSync(cwd);
    fs.writeFileSync(
      path.join(cwd, '.env'),
      'API_TIMEOUT_SECONDS=2\nSYNC_INTERVAL_SECONDS=10\nLOG_LEVEL=DEBUG\nLOG_FILE_PATH=notarium.log\n',
    );
    const printed = await runCli(['serve', '--profile', 'notarium', '--print-config-vars'], { env, cwd });
    const line = (name: string) => printed.stdout.split('\n').find((l) => l.startsWith(`${name} `)) ?? '';
    expect(line('API_TIMEOUT_SECONDS')).toMatch(/\s5\s+\[\.env\]/);
    expect(line('SYNC_INTERVAL_SECONDS')).toMatch(/\s60\s+\[\.env\]/);
    expect(line('LOG_LEVEL')).toMatch(/\sdebug\s+\[\.env\]/);
    fs.mkdirSync(path.join(cwd, 'cache'));
    const listed = await runCli(['call', 'list', '{}', '--profile', 'notarium', '--vault', path.join(cwd, 'cache')], {
      env,
      cwd,
    });
    expect(listed.code, listed.stderr).toBe(0);
    const logged = fs
      .readFileSync(path.join(cwd, 'notarium.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { level: number });
    expect(logged.some((entry) => entry.level === 20)).toBe(true); // debug lines, as LOG_LEVEL asked
    expect(listed.stderr).not.toMatch(/"level":20/);
  });

  it('the same keys in the profile config, under the environment', async () => {
    const cwd = path.join(work, 'with-config');
    fs.mkdirSync(cwd);
    fs.writeFileSync(
      path.join(cwd, 'notekernel.config.json'),
      JSON.stringify({
        profile: 'notarium',
        storage: { options: { SYNC_INTERVAL_SECONDS: 600, SIMPLENOTE_USERNAME: 'config@example.com' } },
      }),
    );
    const { SIMPLENOTE_USERNAME: _user, ...withoutUser } = env;
    const run = await runCli(['serve', '--print-config-vars'], {
      env: { ...withoutUser, SIMPLENOTE_USERNAME: '' },
      cwd,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/SYNC_INTERVAL_SECONDS\s+600\s+\[config\]/);
    expect(run.stdout).toMatch(/SIMPLENOTE_USERNAME\s+config@example\.com\s+\[config, required\]/);
  });

  it('a missing credential: one line naming the variable, exit 1', async () => {
    const run = await runCli(['serve', '--profile', 'notarium', '--vault', path.join(work, 'never-created')], {
      env: { ...env, SIMPLENOTE_PASSWORD: '' },
      cwd: work,
    });
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^notekernel: SIMPLENOTE_PASSWORD is not set/);
    expect(fs.existsSync(path.join(work, 'never-created'))).toBe(false);
  });

  it('the cache goes to XDG_CACHE_HOME/notekernel/simplenote, NOTARIUM_CACHE_DIR, or --vault DIR', async () => {
    const list = (extra: Record<string, string>, args: string[] = []) =>
      runCli(['call', 'list', '{}', '--profile', 'notarium', '--json', ...args], {
        env: { ...env, ...extra },
        cwd: work,
      });
    const xdg = await list({});
    expect(xdg.code, xdg.stderr).toBe(0);
    expect(JSON.parse(xdg.stdout).content).toHaveLength(3);
    expect(cacheFiles(path.join(work, 'xdg', 'notekernel', 'simplenote'))).toHaveLength(1);

    const dir = path.join(work, 'cache-dir');
    expect((await list({ NOTARIUM_CACHE_DIR: dir })).code).toBe(0);
    expect(cacheFiles(dir)).toHaveLength(1);

    const vault = path.join(work, 'vault-dir');
    fs.mkdirSync(vault);
    expect((await list({ NOTARIUM_CACHE_DIR: dir }, ['--vault', vault])).code).toBe(0);
    expect(cacheFiles(vault)).toHaveLength(1);
  });
});

describe('notarium with the links and tags plugins added in a config file', () => {
  it('answers tag and link tools from Simplenote tags and [[links]]', async () => {
    const config = path.join(work, 'notarium-links.json');
    fs.writeFileSync(config, JSON.stringify({ profile: 'notarium', plugins: { links: true, tags: true } }));
    const session = await connectStdio(['serve', '--config', config, '--vault', path.join(work, 'links-cache')], env);
    try {
      const { tools } = await session.client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['list', 'get', 'save', 'manage', 'list_tags', 'get_backlinks']));
      const tags = await callTool(session.client, 'list_tags', {});
      expect(tags.isError, JSON.stringify(tags.body)).toBe(false);
      expect(JSON.stringify(tags.body)).toMatch(/"birds"/);
      const counts = Object.fromEntries(
        (
          (tags.body as { tags?: Array<{ tag?: string; name?: string; count: number }> }).tags ??
          (tags.body as Array<{ tag?: string; name?: string; count: number }>)
        ).map((t) => [t.tag ?? t.name, t.count]),
      );
      expect(counts).toMatchObject({ birds: 3, raptors: 1, index: 1 });

      const backlinks = await callTool(session.client, 'get_backlinks', { identifier: 'hub' });
      expect(backlinks.isError, JSON.stringify(backlinks.body)).toBe(false);
      expect(JSON.stringify(backlinks.body)).toContain('heron');

      // A tag saved through the seed's tool reaches the tag index.
      const saved = await callTool(session.client, 'save', {
        text: 'Kite notes\nlinks to [[Osprey notes]]',
        tags: ['raptors'],
      });
      expect(saved.isError, JSON.stringify(saved.body)).toBe(false);
      const after = await callTool(session.client, 'list_tags', {});
      expect(JSON.stringify(after.body)).toMatch(/"raptors"[^}]*"count":\s*2|"count":\s*2[^}]*"raptors"/);
      const toOsprey = await callTool(session.client, 'get_backlinks', { identifier: 'osprey' });
      expect(JSON.stringify(toOsprey.body)).toContain((saved.body as { id: string }).id);

      // A note from another device, pulled by manage sync, reaches the tag and link indexes too.
      note('egret', 'Egret notes\nwading near [[Heron notes]]', ['waders']);
      expect((await callTool(session.client, 'manage', { action: 'sync' })).body).toMatchObject({ indexed: 1 });
      await expect
        .poll(async () => JSON.stringify((await callTool(session.client, 'list_tags', {})).body), { timeout: 5000 })
        .toContain('waders');
      await expect
        .poll(
          async () => JSON.stringify((await callTool(session.client, 'get_backlinks', { identifier: 'heron' })).body),
          { timeout: 5000 },
        )
        .toContain('egret');
    } finally {
      await session.close();
    }
  }, 60_000);
});
