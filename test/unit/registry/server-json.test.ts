/**
 * server.json is what the MCP Registry publishes and what registry-aware clients install from: it must
 * pass the registry's own schema (vendored, nothing is downloaded), name the package that carries the
 * same mcpName and version, and describe only arguments and environment variables the CLI really takes,
 * with defaults that start the same server as the pasted client configs (decision 047).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/cli.js';
import { runCli } from '../../support/run-cli.js';
import { tempDir } from '../../support/temp.js';

const SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
const SCHEMA_FILE = path.join(REPO_ROOT, 'test/fixtures/mcp-registry/server.schema.2025-12-11.json');
// The published file's hash: a vendored copy that drifted (or was reformatted) is caught here.
const SCHEMA_SHA256 = '3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0';

interface Argument {
  type: 'positional' | 'named';
  name?: string;
  value?: string;
  default?: string;
  choices?: string[];
}
interface Package {
  registryType: string;
  identifier: string;
  version: string;
  transport: { type: string; url?: string };
  packageArguments?: Argument[];
  environmentVariables?: { name: string }[];
}
interface ServerJson {
  $schema: string;
  name: string;
  version: string;
  description: string;
  packages: Package[];
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')) as T;
const server = readJson<ServerJson>('server.json');
const pkg = readJson<{ name: string; version: string; mcpName?: string }>('package.json');

/** The command line a client builds from a package entry when the user keeps every default. */
function defaultArgs(entry: Package): string[] {
  return (entry.packageArguments ?? []).flatMap((arg) => {
    const value = arg.value ?? arg.default;
    if (value === undefined) throw new Error(`argument ${arg.name ?? '(positional)'} has neither value nor default`);
    return arg.type === 'named' ? [arg.name!, value] : [value];
  });
}

describe('server.json', () => {
  it('is valid against the vendored registry schema it names', () => {
    const bytes = fs.readFileSync(SCHEMA_FILE);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(SCHEMA_SHA256);
    const schema = JSON.parse(bytes.toString('utf8')) as { $id: string };
    expect(schema.$id).toBe(SCHEMA_URL);
    expect(server.$schema).toBe(SCHEMA_URL);

    // The schema carries OpenAPI's `example` keyword, which strict mode refuses as unknown.
    const ajv = new Ajv({ strict: false, allErrors: true });
    (addFormatsModule as unknown as { default: (a: Ajv) => Ajv }).default(ajv);
    const validate = ajv.compile(schema);
    expect(validate(server), JSON.stringify(validate.errors, null, 2)).toBe(true);
    // The schema is not toothless: a version range is refused, as the registry refuses it.
    expect(validate({ ...server, packages: [{ ...server.packages[0], version: 'latest' }] })).toBe(false);
  });

  it('names the npm package that claims it, at the same version', () => {
    expect(pkg.mcpName).toBe(server.name);
    expect(server.version).toBe(pkg.version);
    expect(server.packages.length).toBeGreaterThan(0);
    for (const entry of server.packages) {
      expect(entry).toMatchObject({ registryType: 'npm', identifier: pkg.name, version: pkg.version });
    }
    expect(server.packages.map((p) => p.transport.type).sort()).toEqual(['stdio', 'streamable-http']);
  });

  describe('against the built CLI', () => {
    let help: string;
    let profiles: string[];
    beforeAll(async () => {
      const run = await runCli(['serve', '--help']);
      expect(run.code).toBe(0);
      help = run.stdout;
      const listed = /profile: ([\w\s,-]+?) \(built in\)/.exec(help.replace(/\s+/g, ' '));
      profiles = (listed?.[1] ?? '').split(/,\s*|\s+or\s+/).filter(Boolean);
    });

    it('documents only options `serve --help` lists, and every built-in profile', () => {
      expect(profiles).toContain('flint');
      for (const entry of server.packages) {
        const [command, ...rest] = entry.packageArguments ?? [];
        expect(command).toEqual({ type: 'positional', value: 'serve' });
        for (const arg of rest) {
          const flag = arg.type === 'named' ? arg.name! : arg.value!;
          expect(flag).toMatch(/^--[a-z-]+$/);
          expect(help, `${flag} is not a serve option`).toMatch(new RegExp(`(^|[\\s,])${flag}[\\s<]`, 'm'));
          if (arg.name === '--profile') expect(arg.choices).toEqual(profiles);
        }
      }
    });

    it('names environment variables notekernel reads', async () => {
      const vault = await tempDir('nk-server-json-');
      const notarium = await runCli(['serve', '--profile', 'notarium', '--vault', vault, '--print-config-vars']);
      const sources = ['app', 'plugins', 'backends', 'kernel', 'toolkit']
        .flatMap((dir) =>
          fs
            .readdirSync(path.join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' })
            .map((f) => path.join(REPO_ROOT, dir, f)),
        )
        .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
        .map((file) => fs.readFileSync(file, 'utf8'))
        .join('\n');
      for (const { name } of server.packages.flatMap((p) => p.environmentVariables ?? [])) {
        if (name.startsWith('NOTEKERNEL_')) expect(sources, name).toMatch(new RegExp(`env\\.${name}\\b`));
        else expect(notarium.stdout, name).toMatch(new RegExp(`^${name}\\s`, 'm'));
      }
    });
  });

  it('starts, with its defaults, the server the pasted Claude Desktop config starts', () => {
    const desktop = readJson<{ mcpServers: Record<string, { args: string[] }> }>('examples/claude-desktop.json');
    const stdio = server.packages.find((p) => p.transport.type === 'stdio')!;
    expect(defaultArgs(stdio)).toEqual(desktop.mcpServers.notekernel?.args);
    const http = server.packages.find((p) => p.transport.type === 'streamable-http')!;
    const port = http.packageArguments?.find((a) => a.name === '--port')?.default;
    expect(http.transport.url?.replace('{--port}', port ?? '')).toBe('http://127.0.0.1:3777/mcp');
    expect(defaultArgs(http)).toEqual([
      'serve',
      '--http',
      '--port',
      '3777',
      ...desktop.mcpServers.notekernel!.args.slice(1),
    ]);
  });
});
