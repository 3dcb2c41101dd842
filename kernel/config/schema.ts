/** The config the app resolves from a user's file over its profile preset (app/config). */
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
  http: {
    host?: string;
    port?: number;
    token?: string;
    allowedOrigins?: string[];
    allowedHosts?: string[];
    sessionIdleSeconds?: number;
    maxSessions?: number;
  };
  /** One size limit for a message, a note and an answer (decision 028). */
  limits: { messageBytes: number };
}
