/**
 * `serve --print-config-vars` (seed 003 §3/§4): the storage backend's settings read from outside
 * the config file, each with its effective value (secrets masked) and where it came from; and
 * the start-up check that a required one is set, failing with one line that names it.
 */
import type { BackendSetting } from '../../../kernel/backend.js';
import type { Kernel } from '../../../kernel/kernel.js';
import { ExitCode } from '../exit-code.js';

export function backendSettings(kernel: Kernel): BackendSetting[] {
  const { definition, options } = kernel.plan.storage;
  return definition.settings?.(options) ?? [];
}

export function printConfigVars(kernel: Kernel, out: (text: string) => void): void {
  const settings = backendSettings(kernel);
  if (settings.length === 0) {
    out(
      `# backend "${kernel.plan.storage.definition.id}" reads no environment variables; its settings are in the config file\n`,
    );
    return;
  }
  out(
    `# ${kernel.config.profile} (backend ${kernel.plan.storage.definition.id}): environment variables, .env, or storage.options in the config\n`,
  );
  const width = Math.max(...settings.map((s) => s.name.length));
  for (const setting of settings) {
    const value = setting.value === undefined ? '(unset)' : setting.secret ? '********' : setting.value;
    out(
      `${setting.name.padEnd(width)}  ${value}  [${setting.source}${setting.required ? ', required' : ''}]  ${setting.purpose}\n`,
    );
  }
}

/** A required setting that is missing ends start-up with one line naming it (exit 1, as seed 003 §4 says). */
export function checkRequiredSettings(kernel: Kernel, err: (text: string) => void): void {
  const missing = backendSettings(kernel).find((s) => s.required && s.value === undefined);
  if (!missing) return;
  err(
    `notekernel: ${missing.name} is not set — ${missing.purpose}; set it in the environment, in .env, or as storage.options.${missing.name} in the config\n`,
  );
  throw new ExitCode(1);
}
