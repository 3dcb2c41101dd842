/**
 * examples/chat-agent with seed 004's profile, end to end: the built notekernel CLI serving an
 * obsidian vault, a fake OpenAI-compatible endpoint playing the model.
 * - The system prompt carries one "User Preferences" heading, whether the preferences come from
 *   the server's user_preferences prompt (which sends its own heading) or there are none.
 * - The folder, copied out alone as its README says (no project around it), builds with its own
 *   package.json and tsconfig.json (no TS1470), and its command-line chat answers piped lines.
 */
import { runCommand, type CliRun } from '../support/run-cli.js';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatAgent } from '../../examples/chat-agent/main.js';
import { CLI, REPO_ROOT, assertBuilt } from '../support/cli.js';
import { FakeChatEndpoint, callTools, say, type ReceivedMessage } from '../support/fake-chat-endpoint.js';
import { rawRequest } from '../support/raw-http.js';
import { removeDir, tempDir } from '../support/temp.js';

const HASHED = 'search:\n  backend: hybrid-search\n  options: { embedder: hashed, embedThreads: 0 }\n';
let sandbox: string;
let model: FakeChatEndpoint;
let baseUrl: string;

async function obsidianVault(name: string): Promise<string> {
  const vault = path.join(sandbox, name);
  await fs.mkdir(path.join(vault, 'Projects'), { recursive: true });
  await fs.writeFile(path.join(vault, 'Projects', 'Kestrel.md'), '# Kestrel\n\nThe kestrel budget is 40 pounds.\n');
  // The small embedder (found beside the vault): these tests are about the agent, not the model.
  await fs.writeFile(path.join(vault, '.notekernelrc.yaml'), HASHED);
  return vault;
}

const systemOf = (messages: ReceivedMessage[] = []) => messages.find((m) => m.role === 'system')?.content ?? '';
const count = (text: string, part: string) => text.split(part).length - 1;

beforeAll(async () => {
  assertBuilt();
  sandbox = await tempDir('nk-chat-obsidian-');
  model = new FakeChatEndpoint();
  baseUrl = await model.start();
});
afterAll(async () => {
  await model?.stop();
  if (sandbox) await removeDir(sandbox);
});

describe('the chat agent on the obsidian profile', () => {
  it('puts the saved preferences under one User Preferences heading (none saved: no section)', async () => {
    const vault = await obsidianVault('prefs');
    const agent = await startChatAgent({
      chat: { baseUrl, model: 'scripted' },
      server: { command: [process.execPath, CLI], profile: 'obsidian', vault },
      host: '127.0.0.1',
      port: 0,
      maxSteps: 3,
    });
    try {
      expect(agent.preferences).toEqual({ kind: 'prompt', name: 'user_preferences' });
      model.requests.length = 0;
      model.reply(callTools({ name: 'save_preference', arguments: { preference: 'Answer in French.' } }), say('Noté.'));
      const first = await rawRequest(`${agent.url}/chat`, { body: { message: 'Always answer in French.' } });
      expect(first.status).toBe(200);
      expect(systemOf(model.requests[0]?.body.messages)).not.toContain('User Preferences');
      expect(systemOf(model.requests[0]?.body.messages)).not.toContain('none saved');

      model.reply(say("D'accord."));
      const sessionId = (JSON.parse(first.body) as { session_id: string }).session_id;
      await rawRequest(`${agent.url}/chat`, { body: { message: 'Hello', session_id: sessionId } });
      const system = systemOf(model.requests.at(-1)?.body.messages);
      expect(count(system, 'User Preferences')).toBe(1);
      expect(count(system, 'Follow these preferences')).toBe(1);
      expect(system).toMatch(
        /## User Preferences\nFollow these preferences the user has saved:\n- Answer in French\.$/,
      );
    } finally {
      await agent.close();
    }
  }, 60_000);

  it('the folder copied out alone builds with its own package.json, and chat-cli answers piped messages', async () => {
    // The folder as a user copies it, with the packages its README installs (here: this repository's).
    const folder = path.join(sandbox, 'chat-agent');
    await fs.cp(path.join(REPO_ROOT, 'examples', 'chat-agent'), folder, {
      recursive: true,
      filter: (src) => !src.split(path.sep).includes('dist'),
    });
    const modules = path.join(folder, 'node_modules');
    await fs.mkdir(path.join(modules, '@modelcontextprotocol'), { recursive: true });
    await fs.mkdir(path.join(modules, '@types'), { recursive: true });
    await fs.symlink(
      path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'client'),
      path.join(modules, '@modelcontextprotocol', 'client'),
      'dir',
    );
    await fs.symlink(
      path.join(REPO_ROOT, 'node_modules', '@types', 'node'),
      path.join(modules, '@types', 'node'),
      'dir',
    );
    await fs.symlink(path.join(REPO_ROOT, 'node_modules', 'typescript'), path.join(modules, 'typescript'), 'dir');
    const build = await runNode([path.join(modules, 'typescript', 'bin', 'tsc'), '-p', '.'], { cwd: folder });
    expect(build.stdout + build.stderr).not.toContain('TS1470');
    expect(build.code, build.stdout + build.stderr).toBe(0);

    const vault = await obsidianVault('cli');
    model.requests.length = 0;
    model.reply(
      callTools({ name: 'search_vault', arguments: { query: 'kestrel budget', mode: 'keyword' } }),
      say('40 pounds, in Projects/Kestrel.md.'),
      say('Bye for now.'),
    );
    const chat = await runNode(
      [path.join(folder, 'dist', 'chat-cli.js'), '--vault', vault, '--server-command', `${process.execPath} ${CLI}`],
      {
        cwd: folder,
        env: { OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: 'scripted' },
        input: 'What is the kestrel budget?\nThanks!\nexit\n',
      },
    );
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toBe('40 pounds, in Projects/Kestrel.md.\nBye for now.\n');
    expect(chat.stderr).toContain('[search_vault] {"query":"kestrel budget","mode":"keyword"}');
    // The search's answer went back to the model, and the second message carried the first turn.
    const toolAnswer = model.requests[1]?.body.messages.at(-1);
    expect(toolAnswer?.role).toBe('tool');
    expect(toolAnswer?.content).toContain('Projects/Kestrel.md');
    expect(model.requests[2]?.body.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
  }, 120_000);
});

function runNode(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; input?: string },
): Promise<CliRun> {
  return runCommand(process.execPath, args, options);
}
