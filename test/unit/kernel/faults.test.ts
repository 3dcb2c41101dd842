import { describe, expect, it } from 'vitest';
import { VaultFaults } from '../../../kernel/faults.js';
import { withNotices } from '../../../kernel/tool-args.js';
import { silentLogger } from '../../../kernel/logger.js';

describe('vault faults', () => {
  const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

  it('tells a fault under way in every notice until it is cleared, counting repeats once', () => {
    const faults = new VaultFaults(silentLogger());
    expect(faults.notices()).toEqual([]);
    faults.report('index rows', full, 'Retried automatically.');
    faults.report('index rows', full, 'Retried automatically.');
    expect(faults.list()).toEqual([
      expect.objectContaining({
        source: 'index rows',
        code: 'no_space',
        times: 2,
        consequence: 'Retried automatically.',
      }),
    ]);
    expect(faults.notices()).toEqual(['index rows: No space left on the device. Retried automatically.']);
    faults.clear('index rows');
    expect(faults.notices()).toEqual([]);
  });

  it('keeps one entry per source', () => {
    const faults = new VaultFaults(silentLogger());
    faults.report('index checkpoint', full, 'a');
    faults.report('index rows', full, 'b');
    faults.clear('index checkpoint');
    expect(faults.list().map((f) => f.source)).toEqual(['index rows']);
  });
});

describe('notices in an answer', () => {
  it("come after the tool's own notices, never instead of them", () => {
    expect(withNotices({ text: 'x', notices: ['cached copy'] }, ['simplenote sync: down'])).toEqual({
      text: 'x',
      notices: ['cached copy', 'simplenote sync: down'],
    });
    expect(withNotices({ text: 'x' }, ['index rows: full'])).toEqual({ text: 'x', notices: ['index rows: full'] });
    expect(withNotices(['a'], ['index rows: full'])).toEqual(['a']);
  });
});
