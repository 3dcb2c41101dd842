/**
 * search_vault's `wait_for_vectors: true` on a fresh 125-note vault (four sections a note, the
 * profile's real model in its worker thread) answers inside an MCP client's default 60 s request
 * timeout: the SDK client is called with its defaults (no timeout given, no reset on progress).
 * While it waits it sends notifications/progress; past the wait's bound it answers from the
 * vectors ready, with a notice saying it stopped waiting and how to wait for the rest.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Progress } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio, type StdioSession } from '../../support/mcp.js';
import { rng } from '../../support/generate-vault.js';
import { removeDir, tempDir } from '../../support/temp.js';

const NOTES = 125;
const WORDS =
  'river harbour lantern orchard granite meadow ledger quarterly supplier courier falcon willow cobalt pioneer vertex saffron tundra juniper meridian orchid budget release feedback network'.split(
    ' ',
  );

let sandbox: string;

function writeVault(root: string): void {
  const random = rng(3104);
  const sentence = () => Array.from({ length: 14 }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  fs.mkdirSync(path.join(root, 'Notes'), { recursive: true });
  for (let i = 0; i < NOTES; i++) {
    const sections = ['Summary', 'Details', 'Decisions', 'Next steps'].map(
      (heading) => `## ${heading}\n\n${sentence()}. ${sentence()}. ${sentence()}.\n`,
    );
    fs.writeFileSync(path.join(root, 'Notes', `Note ${i}.md`), `# Note ${i}\n\n${sections.join('\n')}`);
  }
}

interface Answer {
  body: { results: Array<{ source: string }>; notice?: string; vectors?: { ready: number; total: number } };
  progress: Progress[];
  ms: number;
}

/** search_vault with wait_for_vectors, as a client with the SDK's default request options does it (a progress handler only). */
async function waitingSearch(session: StdioSession): Promise<Answer> {
  const progress: Progress[] = [];
  // A last notification read in the same chunk as the answer reaches onerror (see wait-for-vectors.test.ts).
  session.client.onerror = (err) => {
    const json = /unknown token: (\{.*\})$/.exec(err.message)?.[1];
    if (json) progress.push((JSON.parse(json) as { params: Progress }).params);
  };
  const started = Date.now();
  const result = await session.client.callTool(
    {
      name: 'search_vault',
      arguments: { query: 'harbour lantern at the orchard', mode: 'semantic', wait_for_vectors: true },
    },
    {
      onprogress: (p) => void progress.push(p),
    },
  );
  const ms = Date.now() - started;
  await new Promise((resolve) => setImmediate(resolve));
  expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
  return { body: JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as Answer['body'], progress, ms };
}

async function serve(name: string, config: string): Promise<StdioSession> {
  const vault = path.join(sandbox, name);
  writeVault(vault);
  const file = path.join(sandbox, `${name}.yaml`);
  fs.writeFileSync(file, config);
  return connectStdio(['serve', '--config', file, '--vault', vault], {
    NOTEKERNEL_CONFIG_DIR: path.join(sandbox, 'registry'),
  });
}

beforeAll(async () => {
  sandbox = await tempDir('nk-e2e-obsidian-wait-bound-');
});

afterAll(async () => {
  await removeDir(sandbox);
});

describe('wait_for_vectors inside a client timeout', () => {
  it('past its bound (waitForVectorsSeconds: 3) it answers from the vectors ready, with progress sent meanwhile and a notice', async () => {
    const session = await serve(
      'bounded',
      'profile: obsidian\nplugins:\n  obsidian-tools: { waitForVectorsSeconds: 3 }\n',
    );
    try {
      const answer = await waitingSearch(session);
      expect(answer.ms).toBeLessThan(15_000);
      expect(answer.body.notice).toMatch(/Waited 3 s .*call again with wait_for_vectors: true/);
      expect(answer.body.vectors!.ready).toBeLessThan(answer.body.vectors!.total);
      expect(answer.progress.length).toBeGreaterThanOrEqual(1);
      for (let i = 1; i < answer.progress.length; i++)
        expect(answer.progress[i]!.progress).toBeGreaterThan(answer.progress[i - 1]!.progress);
      expect(answer.progress[0]!.message).toMatch(/embedding passages/);
    } finally {
      await session.close();
    }
  }, 60_000);

  it('with the defaults, a fresh 125-note vault answers before the 60 s a client waits', async () => {
    const session = await serve('defaults', 'profile: obsidian\n');
    try {
      const answer = await waitingSearch(session);
      expect(answer.ms).toBeLessThan(55_000); // the SDK client would have timed out at 60 s
      expect(answer.progress.length).toBeGreaterThanOrEqual(1);
      // Either every vector was ready in time (no notice), or the answer says it stopped waiting.
      if (answer.body.notice !== undefined) expect(answer.body.notice).toMatch(/Waited 40 s/);
      expect(answer.body.results.length).toBeGreaterThan(0);
    } finally {
      await session.close();
    }
  }, 120_000);
});
