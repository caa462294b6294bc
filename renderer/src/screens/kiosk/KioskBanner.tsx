import { Picture } from '../../components/Picture';
import { formatDateTime } from '../../format';
import { useLocale } from '../../i18n/i18n';
import { timeZoneOf, useCatalog } from '../../stores/catalog';

/**
 * The top of the portrait screen: the venue's banner picture behind the text when the catalog has one (a
 * typeset banner otherwise), and the chosen show — name, date and time on the venue's clock, venue, and the
 * event's picture when it has one — or the venue's name before one is chosen. On the start screen
 * (`showcase`) the pictures of the events on sale sit under the venue's name.
 */
export function KioskBanner({ showcase = false }: { showcase?: boolean }) {
  const locale = useLocale();
  const occurrenceId = useCatalog((state) => state.occurrenceId);
  const events = useCatalog((state) => state.events);
  const locations = useCatalog((state) => state.locations);
  const event = events.find((candidate) => candidate.occurrences.some((occurrence) => occurrence.id === occurrenceId));
  const occurrence = event?.occurrences.find((candidate) => candidate.id === occurrenceId);
  const venue = locations.find((location) => location.id === event?.locationId) ?? locations[0];
  return (
    <header className="kiosk-banner">
      {venue && <Picture className="banner-image" src={venue.banner} alt={venue.name} />}
      <div className="banner-row">
        <div className="banner-text">
          {event && occurrence ? (
            <>
              <p className="banner-title">{event.name}</p>
              {event.kind === 'ticket' && <p className="banner-when">{formatDateTime(occurrence.startsAt, locale, timeZoneOf({ events, locations }, event.id))}</p>}
              {venue && <p className="banner-where">{venue.name}</p>}
            </>
          ) : (
            venue && <p className="banner-title">{venue.name}</p>
          )}
        </div>
        {event && occurrence && <Picture className="banner-picture" src={event.image} alt={event.name} />}
      </div>
      {showcase && events.some((candidate) => candidate.image !== undefined) && (
        <ul className="banner-showcase">
          {events.map((candidate) => candidate.image !== undefined && (
            <li key={candidate.id}>
              <Picture className="showcase-picture" src={candidate.image} alt={candidate.name} />
            </li>
          ))}
        </ul>
      )}
    </header>
  );
}
