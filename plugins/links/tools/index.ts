import type { AnyTool } from '../../../kernel/tool.js';
import type { LinksRuntime } from '../runtime.js';
import { findBrokenLinksTool } from './find-broken-links.js';
import { getBacklinksTool } from './get-backlinks.js';
import { getLinkGraphTool } from './get-link-graph.js';
import { getNoteLinksTool } from './get-note-links.js';
import { linksRepairTool } from './links-repair.js';
import { migrateLinksTool } from './migrate-links.js';
import { searchByLinksTool } from './search-by-links.js';

export function linkTools(runtime: LinksRuntime): AnyTool[] {
  return [
    getNoteLinksTool(runtime),
    getBacklinksTool(runtime),
    findBrokenLinksTool(runtime),
    searchByLinksTool(runtime),
    migrateLinksTool(runtime),
    getLinkGraphTool(runtime),
    linksRepairTool(runtime),
  ] as AnyTool[];
}
