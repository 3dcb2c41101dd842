/**
 * The notarium end-to-end tests' shared ground: a fake Simperium holding 30 notes written
 * earlier on another device, the built server on a fresh cache folder, and the small helpers
 * that call a tool, expect a refusal or read what the fake received.
 */
import { expect } from 'vitest';
import { startFakeSimperium, type FakeSimperium } from '../../support/fake-simperium/index.js';
import { callTool, connectStdio, type StdioSession } from '../../support/mcp.js';
import { envFor } from '../../support/simplenote-subject.js';
import { tempDir } from '../../support/temp.js';

export interface ListItem {
  type: 'text';
  uuid: string;
  text: string;
  local_version: number;
  tags: string[];
  modified_at: number;
  trash: boolean;
}
export interface ListOutput {
  content: ListItem[];
  next_page?: number;
}
export interface NoteData {
  id: string;
  local_version: number;
  server_version?: number;
  text: string;
  tags: string[];
  modified_at: number;
  created_at?: number;
  trash: boolean;
  text_is_partial?: boolean;
  text_total_lines?: number;
}

export const DAY = 86_400;
export const JAN_2024 = Date.UTC(2024, 0, 1) / 1000;

export interface NotariumServer {
  fake: FakeSimperium;
  cacheDir: string;
  session: StdioSession;
  env: Record<string, string>;
}

/** The fake with its 30 notes and the server on a new cache folder. */
export async function startNotarium(): Promise<NotariumServer> {
  const fake = await startFakeSimperium();
  // 30 notes written earlier on another device: one a day through January 2024.
  for (let i = 0; i < 30; i += 1)
    deviceNote(
      fake,
      `dev${i}`,
      `Garden log ${i}\nwatered the ${i % 2 ? 'roses' : 'tomatoes'} today`,
      i % 3 === 0 ? ['garden', 'daily'] : ['garden'],
      JAN_2024 + i * DAY + 3600,
    );
  const cacheDir = await tempDir('nk-e2e-notarium-');
  const env = { ...(envFor(fake) as Record<string, string>), API_TIMEOUT_SECONDS: '5' };
  const session = await connectStdio(['serve', '--profile', 'notarium', '--vault', cacheDir], env);
  return { fake, cacheDir, session, env };
}

export function deviceNote(fake: FakeSimperium, id: string, content: string, tags: string[], modified: number): void {
  fake.bucket().post(id, {
    content,
    tags,
    systemTags: [],
    creationDate: modified - DAY,
    modificationDate: modified,
    deleted: false,
    shareURL: '',
    publishURL: '',
  });
}

/** Helpers bound to the test file's current fake and session (a test may restart the session). */
export function notariumHelpers(current: () => { fake: FakeSimperium; session: StdioSession }) {
  async function call<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
    const answer = await callTool(current().session.client, name, args);
    if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.body)}`);
    return answer.body as T;
  }

  async function refused(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ error: string; message: string; field?: string; hint?: string }> {
    const answer = await callTool(current().session.client, name, args);
    expect(answer.isError, `${name} ${JSON.stringify(args).slice(0, 200)} should fail`).toBe(true);
    return answer.body as { error: string; message: string; field?: string; hint?: string };
  }

  /** Writes the fake received (POST / DELETE on the note bucket). */
  function writes(): number {
    return current().fake.requests.filter((r) => r.method !== 'GET' && r.path.includes('/note/')).length;
  }

  function onServer(text: string): string[] {
    const { fake } = current();
    return fake
      .bucket()
      .index()
      .filter((entry) => fake.bucket().get(entry.id)?.data.content === text)
      .map((entry) => entry.id);
  }

  async function allIds(extra: Record<string, unknown> = {}): Promise<string[]> {
    const ids: string[] = [];
    for (let page: number | undefined = 1; page !== undefined; ) {
      const out: ListOutput = await call<ListOutput>('list', { limit: 100, page, ...extra });
      ids.push(...out.content.map((item) => item.uuid));
      page = out.next_page;
    }
    return ids;
  }

  return {
    call,
    refused,
    writes,
    onServer,
    allIds,
    deviceNote: (id: string, content: string, tags: string[], modified: number) =>
      deviceNote(current().fake, id, content, tags, modified),
  };
}
