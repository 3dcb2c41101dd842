/**
 * The one place a search query meets the capabilities of the index that serves it: a query that
 * asks for what the index lacks (a regex of a keyword-only index, `mode: semantic` without
 * vectors) is refused with `capability_missing` naming the query member, the capability and the
 * backend, before the index sees it — so no index has to honour every member of SearchQuery.
 */
import { CAPABILITIES, searchNeeds, type Capability, type SearchIndex } from './backend.js';
import { CapabilityError } from './errors.js';
import { forwardingSearchIndex } from './search-forwarding.js';

export function capabilityGatedSearch(
  index: SearchIndex,
  capabilities: ReadonlySet<Capability>,
  backendId: string,
): SearchIndex {
  return forwardingSearchIndex(index, {
    async search(query) {
      for (const { capability, member } of searchNeeds(query)) {
        if (capabilities.has(capability)) continue;
        throw new CapabilityError(
          `The search asks for "${member}", which needs capability "${capability}" (${CAPABILITIES[capability]}); search backend "${backendId}" does not provide it.`,
          { field: member, capability, backend: backendId },
        );
      }
      return index.search(query);
    },
  });
}
