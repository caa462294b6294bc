/**
 * The venue's day: from its midnight to the next, on the venue's clock (its IANA time zone), as instants the
 * engine can be asked about. A till set to another zone still counts the venue's day; a day with a clock
 * change is 23 or 25 hours long.
 */
export function venueDay(now: Date, timeZone: string | undefined): { from: string; to: string } {
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const [year = 1970, month = 1, day = 1] = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .format(now)
    .split('-')
    .map(Number);
  return { from: new Date(midnight(year, month, day, zone)).toISOString(), to: new Date(midnight(year, month, day + 1, zone)).toISOString() };
}

/** The instant of 00:00 on that date in `zone` (Date.UTC rolls day 32 over into the next month). */
function midnight(year: number, month: number, day: number, zone: string): number {
  const wall = Date.UTC(year, month - 1, day);
  // Two rounds: the zone's offset at a first guess, then at the corrected instant (the offset may differ across a change).
  let instant = wall - offsetAt(wall, zone);
  instant = wall - offsetAt(instant, zone);
  return instant;
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((candidate) => candidate.type === type)?.value ?? 0);
  const asUtc = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return asUtc - Math.floor(instant / 1000) * 1000;
}
