import type { AnyTool } from '../../../kernel/tool.js';
import { memoryCapture } from './capture.js';
import { memoryDoctor } from './doctor.js';
import { memoryBrokenLinks, memoryLinks, memoryOrphans } from './graph.js';
import { memoryArchive, memoryDelete, memoryUnarchive } from './lifecycle.js';
import { memoryList, memoryRead } from './read.js';
import { memoryRename } from './rename.js';
import { memoryReplaceLink } from './replace-link.js';
import { memorySearch } from './search.js';
import { memoryUpdate } from './update.js';

export const memoryTools: AnyTool[] = [
  memoryCapture,
  memoryRead,
  memoryList,
  memorySearch,
  memoryRename,
  memoryReplaceLink,
  memoryUpdate,
  memoryLinks,
  memoryOrphans,
  memoryBrokenLinks,
  memoryArchive,
  memoryUnarchive,
  memoryDelete,
  memoryDoctor,
] as AnyTool[];
