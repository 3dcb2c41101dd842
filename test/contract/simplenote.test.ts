/**
 * The NoteStore and SearchIndex contracts run against the simplenote backend talking to a fake
 * Simperium server; `outside` is another device writing straight into that server.
 */
import { simplenoteBackend } from '../../backends/simplenote/index.js';
import { openSimplenote } from '../support/simplenote-subject.js';
import { describeNoteStoreContract } from '../../testing/index.js';
import { describeSearchIndexContract } from '../../testing/index.js';

describeNoteStoreContract('simplenote (fake Simperium)', async () => {
  const subject = await openSimplenote();
  return {
    store: subject.instance.store!,
    capabilities: simplenoteBackend.capabilities,
    extensions: simplenoteBackend.extensions ?? [],
    outside: subject.outside,
    close: () => subject.close(),
  };
});

describeSearchIndexContract('simplenote (fake Simperium)', async () => {
  const subject = await openSimplenote();
  return {
    store: subject.instance.store!,
    search: subject.instance.search!,
    capabilities: simplenoteBackend.capabilities,
    extensions: simplenoteBackend.extensions ?? [],
    storeKeeps: { types: false, metadata: false },
    close: () => subject.close(),
  };
});
