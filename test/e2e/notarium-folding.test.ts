/**
 * Letter folding in the simplenote cache's search end to end: the built `notekernel serve
 * --profile notarium` over MCP stdio, against a fake Simperium on 127.0.0.1. The seed's `list`
 * finds `Łódź` for `lodz`, `Bjørn` for `bjorn`, `Straße` for `strasse`, `Ærø` for `aero` (and
 * `Lodz` for `Łódź`). The seed's tools show no snippet (and the search plugin cannot join this
 * profile: it needs note types): test/unit/simplenote/folding.test.ts checks snippets through the
 * backend's own search.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSimperium, type FakeSimperium } from '../support/fake-simperium/index.js';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { envFor } from '../support/simplenote-subject.js';
import { removeDir, tempDir } from '../support/temp.js';

let fake: FakeSimperium;
let work: string;
let session: StdioSession;

async function call<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const answer = await callTool(session.client, name, args);
  if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

const listed = async (query: string) =>
  (await call<{ content: Array<{ uuid: string }> }>('list', { query })).content.map((i) => i.uuid).sort();

beforeAll(async () => {
  fake = await startFakeSimperium();
  const note = (id: string, content: string) =>
    fake.bucket().post(id, {
      content,
      tags: [],
      systemTags: [],
      creationDate: 1700000000,
      modificationDate: 1700000000,
      deleted: false,
      shareURL: '',
      publishURL: '',
    });
  note('lodz', 'Trip to Łódź\nThe Straße by the river, where Bjørn sailed to Ærø in a long boat.');
  note('plain', 'Lodz in plain letters\nwritten without any accents');
  note('other', 'Groceries\nmilk, bread and apples');
  work = await tempDir('nk-e2e-notarium-fold-');
  session = await connectStdio(
    ['serve', '--profile', 'notarium', '--vault', path.join(work, 'cache')],
    envFor(fake) as Record<string, string>,
  );
}, 60_000);

afterAll(async () => {
  await session?.close();
  await fake?.stop();
  await removeDir(work);
});

describe('notarium search folds letters beyond accents', () => {
  it('list: lodz, bjorn, strasse and aero find the note written with Ł, ø, ß and Æ; Łódź finds Lodz', async () => {
    expect(await listed('lodz')).toEqual(['lodz', 'plain']);
    expect(await listed('bjorn')).toEqual(['lodz']);
    expect(await listed('strasse')).toEqual(['lodz']);
    // Ærø folds to `aero` (ø → o, as Bjørn → bjorn).
    expect(await listed('aero')).toEqual(['lodz']);
    expect(await listed('BJØRN "long boat"')).toEqual(['lodz']);
    expect(await listed('Łódź')).toEqual(['lodz', 'plain']);
    expect(await listed('ŁÓDŹ AND plain')).toEqual(['plain']);
    // A question: the note holding both words first.
    expect((await call<{ content: Array<{ uuid: string }> }>('list', { query: 'ŁÓDŹ plain' })).content[0]?.uuid).toBe(
      'plain',
    );
  });
});
