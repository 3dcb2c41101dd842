/** search_notes_advanced's durations and instants. */
import { describe, expect, it } from 'vitest';
import { durationField, instantField, instantOf, rangeOf } from '../../../plugins/search/time-args.js';

const now = new Date('2024-03-31T12:00:00.000Z');

describe('time arguments', () => {
  it('durations count back from now, months and years by the calendar', () => {
    expect(instantOf('12h', now)).toBe('2024-03-31T00:00:00.000Z');
    expect(instantOf('7d', now)).toBe('2024-03-24T12:00:00.000Z');
    expect(instantOf('2w', now)).toBe('2024-03-17T12:00:00.000Z');
    expect(instantOf('1m', now)).toBe('2024-03-02T12:00:00.000Z');
    expect(instantOf('1y', now)).toBe('2023-03-31T12:00:00.000Z');
  });

  it('ISO dates pass through as instants', () => {
    expect(instantOf('2024-01-15', now)).toBe('2024-01-15T00:00:00.000Z');
  });

  it('within and after both bound from below; the later wins', () => {
    expect(rangeOf({ within: '7d', after: '2024-01-01' }, now)).toEqual({ after: '2024-03-24T12:00:00.000Z' });
    expect(rangeOf({ before: '1d' }, now)).toEqual({ before: '2024-03-30T12:00:00.000Z' });
    expect(rangeOf({}, now)).toBeUndefined();
  });

  it.each(['7', 'd7', '7 days', '1.5d', '7D', '-7d'])('refuses the malformed duration %j', (value) => {
    expect(durationField().safeParse(value).success).toBe(false);
  });

  it.each(['yesterday', '2024-13-45', 'soon'])('refuses the malformed instant %j', (value) => {
    expect(instantField('x').safeParse(value).success).toBe(false);
  });
});
