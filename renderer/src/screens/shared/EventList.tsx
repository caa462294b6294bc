import { useEffect } from 'react';
import { Picture } from '../../components/Picture';
import { formatDateTime } from '../../format';
import { useLocale, useT } from '../../i18n/i18n';
import { timeZoneOf, useCatalog } from '../../stores/catalog';

/**
 * Events and their dates; each date is a button named with its start time on the venue's clock (contract §9).
 * `pictures` (the kiosk) shows each event's picture beside its dates when the catalog has one.
 */
export function EventList({ onChosen, pictures = false }: { onChosen?(): void; pictures?: boolean }) {
  const t = useT();
  const locale = useLocale();
  const events = useCatalog((state) => state.events);
  const locations = useCatalog((state) => state.locations);
  const chosen = useCatalog((state) => state.occurrenceId);
  const eventsRequested = useCatalog((state) => state.eventsRequested);
  const occurrenceChosen = useCatalog((state) => state.occurrenceChosen);
  useEffect(() => {
    void eventsRequested();
  }, [eventsRequested]);

  if (events.length === 0) return <p>{t('events.loading')}</p>;
  return (
    <nav className="events" aria-labelledby="events-heading">
      <h2 id="events-heading">{t('events.heading')}</h2>
      {events.map((event) => (
        <section key={event.id} className="event" aria-labelledby={`event-${event.id}`}>
          {pictures && <Picture className="event-picture" src={event.image} alt={event.name} />}
          <div className="event-dates">
            <h3 id={`event-${event.id}`}>{event.name}</h3>
            <ul>
              {event.occurrences.map((occurrence) => (
                <li key={occurrence.id}>
                  <button
                    type="button"
                    className="occurrence"
                    aria-pressed={chosen === occurrence.id}
                    disabled={!occurrence.onSale}
                    onClick={() => {
                      void occurrenceChosen(occurrence.id);
                      onChosen?.();
                    }}
                  >
                    {event.kind === 'giftCard' ? event.name : formatDateTime(occurrence.startsAt, locale, timeZoneOf({ events, locations }, event.id))}
                    {!occurrence.onSale && <span className="tag"> ({t('occurrence.notOnSale')})</span>}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        </section>
      ))}
    </nav>
  );
}
