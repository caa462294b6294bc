import type { Event, Location } from '../../api/types';
import { venueDay } from '../../stores/venue-day';

/** A show the gate can admit to: an occurrence of a ticket event, with its venue's time zone. */
export interface Show {
  occurrenceId: string;
  eventName: string;
  startsAt: string;
  timeZone: string | undefined;
}

/**
 * The shows in the order door staff want them: today's (on the venue's clock) first, then those to come, then
 * those past (the latest first), each by start time. Gift cards are no show.
 */
export function gateShows(events: readonly Event[], locations: readonly Location[], now: Date): Show[] {
  const shows = events
    .filter((event) => event.kind === 'ticket')
    .flatMap((event) => {
      const timeZone = locations.find((location) => location.id === event.locationId)?.timeZone;
      return event.occurrences.map((occurrence) => ({ occurrenceId: occurrence.id, eventName: event.name, startsAt: occurrence.startsAt, timeZone }));
    });
  const rank = (show: Show) => {
    const day = venueDay(now, show.timeZone);
    const starts = Date.parse(show.startsAt);
    return starts >= Date.parse(day.from) && starts < Date.parse(day.to) ? 0 : starts >= now.getTime() ? 1 : 2;
  };
  return shows
    .map((show) => ({ show, rank: rank(show), starts: Date.parse(show.startsAt) }))
    .sort((a, b) => a.rank - b.rank || (a.rank === 2 ? b.starts - a.starts : a.starts - b.starts))
    .map(({ show }) => show);
}
