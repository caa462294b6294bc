import { describe, expect, it } from 'vitest';
import { DEFAULT_TCP_TIMEOUTS, timeoutsForJob } from '../../engine/printing/tcp';

/** A large job is taken at printing speed once the printer's buffer is full: its write timeout grows with its slips. */
describe('the write timeout of a print job', () => {
  it('is the configured one for a job a printer buffers whole (up to ten slips)', () => {
    expect(timeoutsForJob(DEFAULT_TCP_TIMEOUTS, 3)).toEqual(DEFAULT_TCP_TIMEOUTS);
    expect(timeoutsForJob(DEFAULT_TCP_TIMEOUTS, 10)).toEqual(DEFAULT_TCP_TIMEOUTS);
    expect(timeoutsForJob({ connectTimeoutMs: 100, writeTimeoutMs: 500 }, 1)).toEqual({ connectTimeoutMs: 100, writeTimeoutMs: 500 });
  });

  it('grows by 2 s a slip beyond those, the connect timeout unchanged: a 1,000-ticket order with its receipt has ~33 min', () => {
    expect(timeoutsForJob(DEFAULT_TCP_TIMEOUTS, 11)).toEqual({ connectTimeoutMs: 5_000, writeTimeoutMs: 17_000 });
    expect(timeoutsForJob(DEFAULT_TCP_TIMEOUTS, 1_001).writeTimeoutMs).toBe(15_000 + 991 * 2_000);
  });
});
