/**
 * The shape of a user's config file: it names a profile and overrides any part of it;
 * `resolveConfig` merges the two into the kernel's ResolvedConfig.
 */
import { z } from 'zod';
import { ConfigError } from '../../kernel/errors.js';
import { DEFAULT_MESSAGE_BYTES } from '../../kernel/message-limit.js';

/** The smallest size limit a config may set (decision 028). */
const MIN_MESSAGE_BYTES = 64 * 1024;

const options = z.record(z.string(), z.unknown());

const backendChoice = z
  .object({
    backend: z.string().min(1).describe('backend id, e.g. fs-sqlite'),
    options: options.optional(),
  })
  .strict();

/** `true` loads the plugin with its defaults, `false` drops it, an object sets its options. */
const pluginSetting = z.union([z.boolean(), options]);

const toolsSetting = z
  .object({
    rename: z
      .record(z.string(), z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'tool names use letters, digits, _ and -'))
      .optional(),
    hide: z.array(z.string()).optional(),
  })
  .strict();

export const userConfigSchema = z
  .object({
    profile: z.string().optional(),
    vault: z.string().optional(),
    readOnly: z.boolean().optional(),
    storage: z
      .object({ backend: z.string().min(1).optional(), options: options.optional() })
      .strict()
      .optional(),
    search: z.union([z.literal(false), backendChoice]).optional(),
    plugins: z.record(z.string(), pluginSetting).optional(),
    tools: toolsSetting.optional(),
    logging: z
      .object({
        level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
        file: z.string().optional(),
        format: z
          .enum(['auto', 'pretty', 'json'])
          .optional()
          .describe('pretty lines on a terminal (auto), or always pretty / json'),
      })
      .strict()
      .optional(),
    http: z
      .object({
        host: z.string().optional(),
        port: z.number().int().min(0).max(65535).optional(),
        token: z.string().min(16, 'a bearer token needs at least 16 characters').optional(),
        allowedOrigins: z.array(z.string()).optional().describe('browser origins allowed in (none by default)'),
        allowedHosts: z
          .array(z.string())
          .optional()
          .describe('Host names the server answers to besides its bound address'),
        sessionIdleSeconds: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe('close an HTTP session idle this long (default 900)'),
        maxSessions: z.number().int().min(1).optional().describe('most HTTP sessions open at once (default 100)'),
      })
      .strict()
      .optional(),
    limits: z
      .object({
        messageBytes: z
          .number()
          .int()
          .min(MIN_MESSAGE_BYTES)
          .optional()
          .describe('largest MCP message, tool arguments, note or tool answer, in bytes (default 4 MiB)'),
      })
      .strict()
      .optional(),
  })
  .strict();

export type UserConfig = z.infer<typeof userConfigSchema>;

/** The limit from the config, overridden by NOTEKERNEL_MAX_MESSAGE_BYTES when that is set. */
export function messageLimit(configured: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = env.NOTEKERNEL_MAX_MESSAGE_BYTES;
  if (fromEnv !== undefined && fromEnv !== '') {
    const bytes = Number(fromEnv);
    if (!Number.isInteger(bytes) || bytes < MIN_MESSAGE_BYTES) {
      throw new ConfigError(
        `NOTEKERNEL_MAX_MESSAGE_BYTES must be a whole number of bytes, at least ${MIN_MESSAGE_BYTES} (got "${fromEnv}").`,
        { key: 'limits.messageBytes' },
      );
    }
    return bytes;
  }
  return configured ?? DEFAULT_MESSAGE_BYTES;
}
