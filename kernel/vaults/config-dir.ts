/** Where the global vault registry lives: NOTEKERNEL_CONFIG_DIR, else the platform's config folder. */
import os from 'node:os';
import path from 'node:path';

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NOTEKERNEL_CONFIG_DIR) return path.resolve(env.NOTEKERNEL_CONFIG_DIR);
  if (process.platform === 'win32') return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'notekernel');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Preferences', 'notekernel');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'notekernel');
}
