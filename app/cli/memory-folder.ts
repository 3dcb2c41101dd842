/** Where the CLI, given no vault and no config, finds an agent-memory root: the working directory. */
import { loadUserConfig } from '../config/load.js';
import { AGENT_MEMORY_PROFILE, looksLikeMemoryRoot } from '../../profiles/agent-memory/detect.js';

/**
 * The folder a command run in `cwd` without `--vault` or `--config` should open as an
 * agent-memory root: `cwd` itself when it looks like one, unless the profile asked for is
 * another one, or a config file found there names a vault or another profile (the user's
 * word wins over a guess).
 */
export async function memoryFolderHere(cwd: string, profile?: string): Promise<string | undefined> {
  if (profile !== undefined && profile !== AGENT_MEMORY_PROFILE) return undefined;
  if (!(await looksLikeMemoryRoot(cwd))) return undefined;
  const { config } = await loadUserConfig({ searchFrom: [cwd] });
  if (config.vault !== undefined || (profile ?? config.profile ?? AGENT_MEMORY_PROFILE) !== AGENT_MEMORY_PROFILE)
    return undefined;
  return cwd;
}
