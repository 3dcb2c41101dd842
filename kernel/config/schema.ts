/**
 * The shape of a user's config file and of a profile preset. A user config names a profile
 * and overrides any part of it; `resolveConfig` merges the two into one ResolvedConfig.
 */
import { z } from 'zod';
import { MIN_MESSAGE_BYTES } from '../message-limit.js';

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
    rename: z.record(z.string(), z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'tool names use letters, digits, _ and -')).optional(),
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
        format: z.enum(['auto', 'pretty', 'json']).optional().describe('pretty lines on a terminal (auto), or always pretty / json'),
      })
      .strict()
      .optional(),
    http: z
      .object({
        host: z.string().optional(),
        port: z.number().int().min(0).max(65535).optional(),
        token: z.string().min(16, 'a bearer token needs at least 16 characters').optional(),
        allowedOrigins: z.array(z.string()).optional().describe('browser origins allowed in (none by default)'),
        allowedHosts: z.array(z.string()).optional().describe('Host names the server answers to besides its bound address'),
        sessionIdleSeconds: z.number().int().min(1).optional().describe('close an HTTP session idle this long (default 900)'),
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

export interface ProfilePreset {
  id: string;
  description: string;
  storage: { backend: string; options?: Record<string, unknown> };
  search?: { backend: string; options?: Record<string, unknown> };
  plugins: Record<string, true | Record<string, unknown>>;
  tools?: { rename?: Record<string, string>; hide?: string[] };
}

export interface ResolvedConfig {
  profile: string;
  /** Where the config came from: a file path, or a description such as "profile flint (no config file)". */
  source: string;
  /** The config file, when there was one. */
  file?: string;
  vault?: string;
  readOnly: boolean;
  storage: { backend: string; options: Record<string, unknown> };
  search?: { backend: string; options: Record<string, unknown> };
  plugins: Array<{ id: string; options: Record<string, unknown> }>;
  tools: { rename: Record<string, string>; hide: string[] };
  logging: { level?: string; file?: string; format?: 'auto' | 'pretty' | 'json' };
  http: { host?: string; port?: number; token?: string; allowedOrigins?: string[]; allowedHosts?: string[]; sessionIdleSeconds?: number; maxSessions?: number };
  /** One size limit for a message, a note and an answer (decision 028). */
  limits: { messageBytes: number };
}
