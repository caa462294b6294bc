import { describe, expect, it } from 'vitest';
import { venueDay } from '../../../renderer/src/stores/venue-day';

/** The box office's "today" is the venue's day, whatever zone the till's computer is set to. */
describe('venueDay', () => {
  it('runs from midnight to midnight on the venue clock', () => {
    expect(venueDay(new Date('2026-11-26T08:00:00Z'), 'Europe/Berlin')).toEqual({ from: '2026-11-25T23:00:00.000Z', to: '2026-11-26T23:00:00.000Z' });
  });

  it('is the venue’s date, not UTC’s, just after the venue’s midnight', () => {
    expect(venueDay(new Date('2026-11-25T23:30:00Z'), 'Europe/Berlin').from).toBe('2026-11-25T23:00:00.000Z');
    expect(venueDay(new Date('2026-11-26T04:30:00Z'), 'America/New_York')).toEqual({ from: '2026-11-25T05:00:00.000Z', to: '2026-11-26T05:00:00.000Z' });
  });

  it('is 23 hours long on the day the clocks go forward and 25 when they go back', () => {
    expect(venueDay(new Date('2027-03-28T12:00:00Z'), 'Europe/Berlin')).toEqual({ from: '2027-03-27T23:00:00.000Z', to: '2027-03-28T22:00:00.000Z' });
    expect(venueDay(new Date('2027-10-31T12:00:00Z'), 'Europe/Berlin')).toEqual({ from: '2027-10-30T22:00:00.000Z', to: '2027-10-31T23:00:00.000Z' });
  });

  it('rolls over the end of a month and a year', () => {
    expect(venueDay(new Date('2026-12-31T12:00:00Z'), 'Asia/Tokyo')).toEqual({ from: '2026-12-30T15:00:00.000Z', to: '2026-12-31T15:00:00.000Z' });
    expect(venueDay(new Date('2026-12-31T20:00:00Z'), 'Asia/Tokyo')).toEqual({ from: '2026-12-31T15:00:00.000Z', to: '2027-01-01T15:00:00.000Z' });
  });
});
