/**
 * Optimistic locking under load, end to end: 20 update_note calls carrying the same hash reach
 * the server at once; exactly one wins, the other 19 get content_hash_mismatch with the
 * winner's hash, and the file is whole and holds the winner's text.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import yaml from 'js-yaml';
import { startFlint, type FlintSession } from '../support/flint-session.js';

let v: FlintSession;
beforeAll(async () => {
  v = await startFlint('nk-e2e-race-');
  await v.ok('create_note', { title: 'Contended', content: 'Original.', metadata: { tags: ['race'] } });
});
afterAll(async () => {
  await v?.close();
});

it('20 concurrent updates with one hash: one succeeds, 19 get content_hash_mismatch, the file is intact', async () => {
  const { content_hash: hash } = await v.ok<{ content_hash: string }>('get_note', {
    identifier: 'general/contended.md',
    fields: ['content_hash'],
  });
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      v.call('update_note', {
        identifier: 'general/contended.md',
        content: `Writer ${i} was here.\n`,
        metadata: { writer: i },
        content_hash: hash,
      }),
    ),
  );
  const winners = answers.filter((a) => !a.isError);
  const losers = answers
    .filter((a) => a.isError)
    .map((a) => a.body as { error: string; current_hash: string; provided_hash: string });
  expect(winners).toHaveLength(1);
  expect(losers).toHaveLength(19);
  const won = winners[0]?.body as { content_hash: string };
  for (const body of losers)
    expect(body).toMatchObject({ error: 'content_hash_mismatch', current_hash: won.content_hash, provided_hash: hash });

  const text = await v.read('general/contended.md');
  expect(`sha256:${createHash('sha256').update(text).digest('hex')}`).toBe(won.content_hash);
  const match = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(text);
  const front = yaml.load(match?.[1] ?? '', { schema: yaml.CORE_SCHEMA }) as Record<string, unknown>;
  const winner = front.writer as number;
  expect(match?.[2]).toBe(`Writer ${winner} was here.\n`);
  expect(front).toMatchObject({ title: 'Contended', type: 'general', tags: ['race'] });
  const note = await v.ok<{ content: string; content_hash: string }>('get_note', {
    identifier: 'general/contended.md',
  });
  expect(note).toMatchObject({ content: `Writer ${winner} was here.\n`, content_hash: won.content_hash });
});
