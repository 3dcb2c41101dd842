/**
 * An independent check of the fake Simperium server: Debian's python3-simplenote (2.1.4, the
 * library nvpy and simplenote.vim ship against production) is pointed at the fake and drives
 * auth, paged listing (`mark`), reads, versioned updates, trash and delete. A fake only our own
 * client talked to would prove nothing about the wire protocol.
 */
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSimperium, type FakeSimperium } from '../../support/fake-simperium/index.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('../../support/fake-simperium/check-with-simplenote-py.py', import.meta.url));
const available = spawnSync(PYTHON, ['-c', 'import simplenote'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!available)(
  'fake Simperium seen by python3-simplenote 2.1.4 (skipped: `/usr/bin/python3 -c "import simplenote"` fails; apt-get install python3-simplenote)',
  () => {
    let fake: FakeSimperium;
    let result: Record<string, unknown>;

    beforeAll(async () => {
      fake = await startFakeSimperium();
      const { stdout } = await promisify(execFile)(
        PYTHON,
        [SCRIPT, fake.url, fake.appId, fake.apiKey, 'user@example.com', 'secret-password', '7'],
        { timeout: 30_000 },
      );
      result = JSON.parse(stdout) as Record<string, unknown>;
    });
    afterAll(() => fake?.stop());

    it('authenticates with JSON sent as form data, refusing a wrong password', () => {
      expect(result.bad_login).toBe('refused');
      expect(result.token_length).toBe(32);
    });

    it('creates notes at version 1 and lists them all across pages of 7 (marks accumulate)', () => {
      expect(result.added).toBe(25);
      expect(result.first_version).toBe(1);
      expect(result.listed).toBe(25);
      expect(result.listed_distinct).toBe(25);
      expect(result.listed_have_content).toBe(true);
      expect(result.ids_only_listed).toBe(25);
      expect(result.current).toMatch(/^[0-9a-f]{24}$/);
      const marks = fake.requests.filter((r) => r.path.endsWith('/note/index') && r.query.getAll('mark').length > 1);
      expect(marks.length, 'pages requested with accumulated marks').toBeGreaterThan(0);
    });

    it('reads, updates with a version, keeps history, and lists the change after `since`', () => {
      expect(result.got_content).toBe('python note 0\nbody 0');
      expect(result.got_version).toBe(1);
      expect(result.updated_version).toBe(2);
      expect(result.updated_content).toBe('python note 0 edited\nnew body');
      expect(result.old_version_content).toBe('python note 0\nbody 0');
      expect(result.since_listed).toHaveLength(1);
    });

    it('trashes (still listed), then deletes (gone from get and index)', () => {
      expect(result.trashed).toBe(true);
      expect(result.listed_after_trash).toBe(25);
      expect(result.delete_status).toBe(0);
      expect(result.deleted_get_status).toBe(-1);
      expect(result.listed_after_delete).toBe(24);
      expect(fake.requests.some((r) => r.method === 'DELETE' && r.status === 200)).toBe(true);
    });
  },
);
