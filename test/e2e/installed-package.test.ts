/**
 * From the package to the first answer: the packed tarball installed globally into a temp
 * prefix serves every built-in profile to a real MCP client, and the examples compile against
 * the installed package's exports and run as written.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { CONFIG_CASES, TS_CONFIG } from '../support/config-cases.js';
import { FakeChatEndpoint, callTools, say } from '../support/fake-chat-endpoint.js';
import { callTool } from '../support/mcp.js';
import { packAndInstall, type InstalledPackage } from '../support/installed-package.js';
import { removeDir, tempDir } from '../support/temp.js';

const run = promisify(execFile);
let dir: string;
let pkg: InstalledPackage;

beforeAll(async () => {
  dir = await tempDir('nk-pack-');
  pkg = await packAndInstall(dir);
}, 120_000);
afterAll(async () => {
  if (dir) await removeDir(dir);
});

/** The environment a user's shell gives: the global prefix's bin first on PATH. */
function userEnv(): Record<string, string> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PATH: `${pkg.binDir}${path.delimiter}${process.env.PATH ?? ''}`,
  };
  delete env.NOTEKERNEL_LOG_LEVEL;
  return env;
}

async function serve(profile: string, vault: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: pkg.bin,
    args: ['serve', '--profile', profile, '--vault', vault],
    env: userEnv(),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'installed-package-e2e', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('the packed package', () => {
  it('ships code, defaults and licence, and no tests', () => {
    const files = pkg.tarball.files;
    expect(files).toContain('LICENSE');
    expect(files).toContain('plugins/card-workflow/defaults/naming-conventions.md');
    expect(files).toContain('plugins/card-workflow/defaults/template-mapping.yaml');
    expect(files.filter((f) => f.startsWith('plugins/card-workflow/defaults/templates/')).length).toBeGreaterThan(0);
    expect(files.filter((f) => f.startsWith('dist/test/'))).toEqual([]);
    expect(files).toContain('dist/app/cli/bin.cjs');
    expect(files).toContain('dist/testing/index.js');
  });

  const calls: Record<string, { tool: string; args: Record<string, unknown>; expectKey: string }[]> = {
    flint: [{ tool: 'create_note', args: { title: 'Installed', content: 'From the tarball.' }, expectKey: 'id' }],
    zettelkasten: [
      { tool: 'get_available_templates', args: {}, expectKey: 'templates' },
      { tool: 'start_draft_generation', args: { topic: 'spaced repetition' }, expectKey: 'next_action' },
    ],
    'agent-memory': [
      {
        tool: 'memory_capture',
        args: { title: 'Installed', body: 'From the tarball.', tags: ['pkg'] },
        expectKey: 'id',
      },
    ],
    // The model's weights come from the installed package (nothing fetched): a semantic search loads it.
    obsidian: [
      {
        tool: 'create_file',
        args: { path: 'Installed Notes/From the tarball.md', content: 'Packed, installed and served.' },
        expectKey: 'path',
      },
      { tool: 'search_vault', args: { query: 'package installation', mode: 'semantic' }, expectKey: 'results' },
    ],
  };

  for (const [profile, steps] of Object.entries(calls)) {
    it(`serves ${profile} over stdio from the global install`, async () => {
      const vault = path.join(dir, `vault-${profile}`);
      await fs.mkdir(vault);
      const client = await serve(profile, vault);
      try {
        expect(client.getServerVersion()?.name).toBeTruthy();
        const { tools } = await client.listTools();
        for (const step of steps) {
          expect(tools.map((t) => t.name)).toContain(step.tool);
          const answer = await callTool(client, step.tool, step.args);
          expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
          expect(answer.body).toHaveProperty(step.expectKey);
        }
      } finally {
        await client.close();
      }
    });
  }
});

describe('the MCP client configs, pasted as they are', () => {
  interface ServerEntry {
    command?: string;
    args?: string[];
    url?: string;
  }
  const servers = async (file: string) =>
    (
      JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'examples', file), 'utf8')) as {
        mcpServers: Record<string, ServerEntry>;
      }
    ).mcpServers;

  it.each(['claude-desktop.json', 'cursor-mcp.json'])(
    '%s starts the globally installed server (~ and ${workspaceFolder} as the clients give them)',
    async (file) => {
      const home = path.join(dir, `home-${file}`);
      await fs.mkdir(home);
      for (const entry of Object.values(await servers(file))) {
        if (!entry.command) continue;
        expect(entry.args?.some((a) => a.includes('/path/to'))).toBe(false);
        // Cursor expands ${workspaceFolder} itself; Claude Desktop passes ~ unexpanded (notekernel expands it).
        const args = (entry.args ?? []).map((a) => a.replace('${workspaceFolder}', home));
        const transport = new StdioClientTransport({
          command: entry.command,
          args,
          env: { ...userEnv(), HOME: home },
          stderr: 'pipe',
        });
        const client = new Client({ name: 'config-e2e', version: '1.0.0' });
        await client.connect(transport);
        try {
          expect((await callTool(client, 'create_note', { title: 'Pasted', content: 'works' })).isError).toBe(false);
        } finally {
          await client.close();
        }
        expect(await fs.readFile(path.join(home, 'notes', 'general', 'pasted.md'), 'utf8')).toContain('works');
      }
    },
  );

  it.each([
    ['claude-desktop.json', 'claude-desktop-npx.json'],
    ['cursor-mcp.json', 'cursor-mcp-npx.json'],
  ])('%s and %s start the same server', async (global, npx) => {
    const [a, b] = [(await servers(global)).notekernel, (await servers(npx)).notekernel];
    expect(b?.command).toBe('npx');
    expect(b?.args).toEqual(['-y', 'notekernel', ...(a?.args ?? [])]);
  });
});

describe('the examples, against the installed package', () => {
  let out: string;

  beforeAll(async () => {
    // A user's project: the installed notekernel (and the packages the examples import beside it) in node_modules.
    const project = path.join(dir, 'project');
    const modules = path.join(project, 'node_modules');
    await fs.mkdir(path.join(modules, '@modelcontextprotocol'), { recursive: true });
    await fs.symlink(pkg.root, path.join(modules, 'notekernel'), 'dir');
    await fs.symlink(path.join(pkg.root, 'node_modules', 'zod'), path.join(modules, 'zod'), 'dir');
    // The MCP client the client examples import: the package serves MCP but ships no client, so a user installs one.
    await fs.symlink(
      path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'client'),
      path.join(modules, '@modelcontextprotocol', 'client'),
      'dir',
    );
    // vitest, the optional peer `notekernel/testing` runs under: one copy, seen from the project and from the package.
    await fs.symlink(path.join(REPO_ROOT, 'node_modules', 'vitest'), path.join(modules, 'vitest'), 'dir');
    await fs
      .symlink(path.join(REPO_ROOT, 'node_modules', 'vitest'), path.join(pkg.root, 'node_modules', 'vitest'), 'dir')
      .catch(() => undefined);
    await fs.writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
    );
    await fs.cp(path.join(REPO_ROOT, 'examples'), path.join(project, 'src'), { recursive: true });
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [path.join(REPO_ROOT, 'node_modules', '@types')],
        outDir: 'out',
        rootDir: 'src',
      },
      include: ['src/*.ts', 'src/chat-agent/*.ts', 'src/memory-backend/*.ts'],
    };
    await fs.writeFile(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '-p', project]).catch((err: { stdout?: string }) => {
      throw new Error(`the examples do not compile against the installed package:\n${err.stdout ?? String(err)}`);
    });
    out = path.join(project, 'out');
  }, 60_000);

  async function runExample(file: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
    return run(process.execPath, [path.join(out, file), ...args], { env: userEnv(), cwd: dir });
  }

  it('embed-kernel writes and reads a note, quietly', async () => {
    const vault = path.join(dir, 'embedded');
    const { stdout, stderr } = await runExample('embed-kernel.js', vault);
    expect(JSON.parse(stdout)).toMatchObject({ vault, title: 'Embedded', hash: expect.stringMatching(/^sha256:/) });
    expect(stderr).toBe('');
  });

  it("memory-backend's own test passes both contract suites from notekernel/testing", async () => {
    const vitest = path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const project = path.dirname(out);
    const { stdout } = await run(
      process.execPath,
      [vitest, 'run', '--root', project, '--reporter=verbose', 'out/memory-backend'],
      { env: { ...userEnv(), CI: '' }, cwd: project, maxBuffer: 16 << 20 },
    ).catch((err: { stdout?: string; stderr?: string }) => {
      throw new Error(
        `the example's contract test failed against the installed package:\n${err.stdout ?? ''}${err.stderr ?? String(err)}`,
      );
    });
    expect(stdout).toMatch(/Test Files\s+.*1 passed/);
    expect(stdout).toContain('NoteStore contract: memory (example)');
  }, 120_000);

  it('custom-plugin serves its tool', async () => {
    const { stdout } = await runExample('custom-plugin.js', path.join(dir, 'counted'));
    expect(JSON.parse(stdout)).toEqual({ identifier: 'general/count-me.md', words: 3 });
  });

  it('stdio-client talks to the notekernel on PATH', async () => {
    const vault = path.join(dir, 'client');
    await fs.mkdir(vault);
    const { stdout } = await runExample('stdio-client.js', vault);
    expect(stdout).toContain('tools: ');
    expect(stdout).toContain('create_note');
  });

  it('chat-agent serves POST /chat, its tools from the notekernel on PATH', async () => {
    const vault = path.join(dir, 'chat');
    await fs.mkdir(vault);
    const model = new FakeChatEndpoint();
    const env = { ...userEnv(), OPENAI_BASE_URL: await model.start(), OPENAI_MODEL: 'scripted' };
    const child = spawn(
      process.execPath,
      [path.join(out, 'chat-agent', 'main.js'), '--vault', vault, '--profile', 'flint', '--port', '0'],
      { env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    try {
      let stderr = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const match = /chat agent on (http:\/\/\S+)\/chat/.exec(stderr);
          if (match?.[1]) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`the chat agent exited with ${code}:\n${stderr}`)));
      });
      model.reply(
        callTools({ name: 'create_note', arguments: { title: 'Chatted', content: 'Written by the model.' } }),
        say('Done.'),
      );
      const answer = await fetch(`${url}/chat`, {
        method: 'POST',
        body: JSON.stringify({ message: 'Write it down.' }),
      });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({
        response: 'Done.',
        session_id: expect.any(String),
        tool_calls: [{ name: 'create_note', is_error: false }],
      });
      expect(await fs.readFile(path.join(vault, 'general', 'chatted.md'), 'utf8')).toContain('Written by the model.');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await model.stop();
    }
  });
});

describe('config files in every format, read by the installed command', () => {
  // A `.ts` config needs the `typescript` package, which a global install does not bring (README).
  const cases = CONFIG_CASES.filter(([name]) => !name.endsWith('.ts'));
  it.each(cases)('%s, found beside the vault', async (name, files) => {
    const vault = path.join(dir, `config-${cases.findIndex(([n]) => n === name)}`);
    await fs.mkdir(vault);
    for (const [file, text] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(vault, file)), { recursive: true });
      await fs.writeFile(path.join(vault, file), text);
    }
    const { stdout } = await run(pkg.bin, ['tools', '--vault', vault, '--json'], { env: userEnv() });
    const names = (JSON.parse(stdout) as Array<{ name: string }>).map((tool) => tool.name);
    expect(names).toContain('create_note');
    expect(names).not.toContain('list_tags');
  });
});

describe('a .ts config in a project that has typescript, read by the global command (issue 31)', () => {
  // The user's project: typescript installed there (this repository's, linked), the config beside it.
  async function project(name: string, withTypescript: boolean): Promise<string> {
    const folder = path.join(dir, name);
    await fs.mkdir(path.join(folder, 'node_modules'), { recursive: true });
    if (withTypescript)
      await fs.symlink(
        path.join(REPO_ROOT, 'node_modules', 'typescript'),
        path.join(folder, 'node_modules', 'typescript'),
        'dir',
      );
    await fs.writeFile(path.join(folder, 'notekernel.config.ts'), TS_CONFIG);
    return folder;
  }

  it("found beside the vault, and named with --config from elsewhere: typescript is loaded from the config file's project", async () => {
    const vault = await project('ts-project', true);
    // The global install brings no typescript of its own.
    await expect(fs.stat(path.join(pkg.root, 'node_modules', 'typescript'))).rejects.toThrow();
    const found = await run(pkg.bin, ['tools', '--vault', vault, '--json'], { env: userEnv(), cwd: dir });
    expect((JSON.parse(found.stdout) as Array<{ name: string }>).map((t) => t.name)).not.toContain('list_tags');
    const elsewhere = path.join(dir, 'ts-vault-elsewhere');
    await fs.mkdir(elsewhere);
    const named = await run(
      pkg.bin,
      ['tools', '--vault', elsewhere, '--config', path.join(vault, 'notekernel.config.ts'), '--json'],
      { env: userEnv(), cwd: dir },
    );
    expect((JSON.parse(named.stdout) as Array<{ name: string }>).map((t) => t.name)).not.toContain('list_tags');
    // The transpiled copy is gone: the project holds what it held.
    expect((await fs.readdir(vault)).filter((f) => f.endsWith('.mjs'))).toEqual([]);
  });

  it('without typescript anywhere: exit 2, one line saying where to install it', async () => {
    const vault = await project('ts-project-bare', false);
    const failed = await run(pkg.bin, ['tools', '--vault', vault, '--json'], { env: userEnv(), cwd: dir }).then(
      () => undefined,
      (err: { code?: number; stderr?: string; stdout?: string }) => err,
    );
    expect(failed?.code).toBe(2);
    expect(`${failed?.stderr ?? ''}${failed?.stdout ?? ''}`).toContain('typescript');
  });
});
