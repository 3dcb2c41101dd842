/**
 * A query asking for what the serving index lacks (a regex of a keyword-only index, `mode:
 * semantic` without vectors) is refused here with `capability_missing`, naming the member, the
 * capability and the backend, so no index has to honour every member of SearchQuery.
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
