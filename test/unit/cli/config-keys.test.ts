/** Unknown config keys: the closest valid key at that place in the schema. */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { configIssue } from '../../../kernel/config/config-keys.js';
import { parseUserConfig } from '../../../app/config/resolve.js';
import { keysAt } from '../../../kernel/config/config-keys.js';
import { userConfigSchema } from '../../../app/config/user-config.js';

describe('keysAt', () => {
  it('walks optional, union and record wrappers to the object at a path', () => {
    expect(keysAt(userConfigSchema, [])).toContain('profile');
    expect(keysAt(userConfigSchema, ['http'])).toContain('sessionIdleSeconds');
    expect(keysAt(userConfigSchema, ['search'])).toEqual(['backend', 'options']);
    expect(keysAt(userConfigSchema, ['plugins', 'notes'])).toBeUndefined(); // a record of anything
  });
});

describe('configIssue', () => {
  it('names the file, the key path and the closest valid key', () => {
    expect(() => parseUserConfig({ logging: { levle: 'info' } }, 'my.yaml')).toThrow(
      'my.yaml: logging.levle: unknown key; did you mean "level"? (valid keys here: level, file, format)',
    );
  });

  it('with a prefix (plugin or backend options) and no close key, lists the valid ones', () => {
    const schema = z.object({ alpha: z.string().optional(), beta: z.number().optional() }).strict();
    const result = schema.safeParse({ zzzzzz: 1 });
    if (result.success) throw new Error('expected a failure');
    const error = configIssue('c.yaml', result.error, ['plugins', 'p'], schema);
    expect(error.message).toBe('c.yaml: plugins.p.zzzzzz: unknown key (valid keys here: alpha, beta)');
    expect(error.details).toMatchObject({ file: 'c.yaml', key: 'plugins.p.zzzzzz' });
  });
});
