import { formatDateTime } from '../../format';
import { useLocale } from '../../i18n/i18n';
import { timeZoneOf, useCatalog } from '../../stores/catalog';

/**
 * The top of the portrait screen: the chosen show (name, date and time on the venue's clock, venue), or
 * the venue's name before one is chosen. The catalog carries no pictures yet, so it is a typeset banner.
 */
export function KioskBanner() {
  const locale = useLocale();
  const occurrenceId = useCatalog((state) => state.occurrenceId);
  const events = useCatalog((state) => state.events);
  const locations = useCatalog((state) => state.locations);
  const event = events.find((candidate) => candidate.occurrences.some((occurrence) => occurrence.id === occurrenceId));
  const occurrence = event?.occurrences.find((candidate) => candidate.id === occurrenceId);
  const venue = locations.find((location) => location.id === event?.locationId) ?? locations[0];
  return (
    <header className="kiosk-banner">
      {event && occurrence ? (
        <>
          <p className="banner-title">{event.name}</p>
          {event.kind === 'ticket' && <p className="banner-when">{formatDateTime(occurrence.startsAt, locale, timeZoneOf({ events, locations }, event.id))}</p>}
          {venue && <p className="banner-where">{venue.name}</p>}
        </>
      ) : (
        venue && <p className="banner-title">{venue.name}</p>
      )}
    </header>
  );
}
