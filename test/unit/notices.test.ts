import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain script, without types
import { notices } from '../../scripts/notices.mjs';

describe('NOTICES.md', () => {
  it('lists every package the installed notekernel runs on, as package-lock.json has them now', () => {
    expect(fs.readFileSync('NOTICES.md', 'utf8'), 'run node scripts/notices.mjs').toBe((notices as () => string)());
  });

  it('ships in the package', () => {
    const files = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { files: string[] }).files;
    expect(files).toContain('NOTICES.md');
  });
});
