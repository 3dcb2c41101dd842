/**
 * The example backend through the contract suites, as a backend of your own would run them:
 * `notekernel/testing` gives both suites (vitest runs them). Each case opens a fresh, empty
 * instance; the suites use only the NoteStore and SearchIndex contracts.
 */
import { silentLogger } from 'notekernel';
import { describeNoteStoreContract, describeSearchIndexContract } from 'notekernel/testing';
import { memoryBackend } from './index.js';

async function openMemory() {
  const instance = await memoryBackend.create({ options: {}, logger: silentLogger(), readOnly: false });
  return {
    store: instance.store!,
    search: instance.search!,
    capabilities: memoryBackend.capabilities,
    extensions: memoryBackend.extensions ?? [],
    close: async () => instance.store!.close(),
  };
}

describeNoteStoreContract('memory (example)', openMemory);

describeSearchIndexContract('memory (example)', openMemory);
