/** Where the global vault registry lives: NOTEKERNEL_CONFIG_DIR, else the platform's config folder. */
import os from 'node:os';
import path from 'node:path';

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NOTEKERNEL_CONFIG_DIR) return path.resolve(env.NOTEKERNEL_CONFIG_DIR);
  if (process.platform === 'win32')
    return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'notekernel');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Preferences', 'notekernel');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'notekernel');
}

/**
 * Where flint-note keeps its own vault registry, most likely first: its platform folder
 * (`$XDG_CONFIG_HOME/flint-note` when set, as flint-note checks it first on every platform),
 * then seed 000's `~/.flint-note/config.yml`.
 */
export function flintNoteRegistryFiles(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = env.HOME ?? os.homedir();
  const platformDir = env.XDG_CONFIG_HOME
    ? path.join(env.XDG_CONFIG_HOME, 'flint-note')
    : process.platform === 'win32'
      ? path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'flint-note')
      : process.platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support', 'flint-note')
        : path.join(home, '.config', 'flint-note');
  return [path.join(platformDir, 'config.yml'), path.join(home, '.flint-note', 'config.yml')];
}
