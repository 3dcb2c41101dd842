/**
 * Capability names from before decision 042 (`types`, `frontmatter`) still work where a backend
 * declares them or a plugin requires them, read as `typed-notes` and `free-metadata`; store
 * extensions are checked against the members of a definition that lists them.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  canonicalCapabilities,
  canonicalCapability,
  capabilityShapeProblems,
  defineBackend,
  type BackendInstance,
  type NoteStore,
} from '../../../kernel/backend.js';
import { capabilityProviders } from '../../../kernel/plan.js';

const store = (extra: Partial<NoteStore> = {}) => ({ get: async () => undefined, ...extra }) as unknown as NoteStore;
const backend = (capabilities: readonly string[], extensions?: readonly string[]) =>
  defineBackend({
    id: 'legacy',
    kind: 'storage',
    description: 'a third-party backend',
    folder: 'none',
    capabilities: capabilities as never,
    ...(extensions ? { extensions: extensions as never } : {}),
    options: z.object({}),
    create: async () => ({}),
  });

describe('capability names', () => {
  it('reads the deprecated names as the new ones', () => {
    expect(canonicalCapability('types')).toBe('typed-notes');
    expect(canonicalCapability('frontmatter')).toBe('free-metadata');
    expect(canonicalCapability('files')).toBe('files');
    expect(canonicalCapabilities(['types', 'typed-notes', 'frontmatter'])).toEqual(['typed-notes', 'free-metadata']);
  });

  it('a backend declaring the old names offers the new ones, and its members are checked against them', () => {
    const legacy = backend(['types', 'frontmatter']);
    expect([...capabilityProviders(legacy).keys()].sort()).toEqual(['free-metadata', 'typed-notes']);
    const typed: BackendInstance = { store: store({ listTypes: async () => [], move: async () => ({}) as never }) };
    expect(capabilityShapeProblems(legacy, typed)).toEqual([]);
    expect(capabilityShapeProblems(legacy, { store: store() })).toEqual([
      'capability "typed-notes" is declared but store.listTypes is missing',
      'capability "typed-notes" is declared but store.move is missing',
    ]);
  });

  it('store extensions are checked where the definition lists them, both ways', () => {
    const refresh = async () => ({ scanned: 0, indexed: 0, removed: 0, skipped: [], ms: 0 });
    expect(capabilityShapeProblems(backend([], ['refresh']), { store: store() })).toEqual([
      'extension "refresh" is declared but store.refresh is missing',
    ]);
    expect(capabilityShapeProblems(backend([], []), { store: store({ refresh }) })).toEqual([
      'store.refresh exists but extension "refresh" is not declared',
    ]);
    // A definition from before extensions were named is not held to them.
    expect(capabilityShapeProblems(backend([]), { store: store({ refresh }) })).toEqual([]);
    // `defaultType` may exist only with typed-notes, and need not.
    expect(capabilityShapeProblems(backend([], []), { store: store({ defaultType: 'general' }) })).toEqual([
      'store.defaultType exists but capability "typed-notes" is not declared',
    ]);
  });
});
