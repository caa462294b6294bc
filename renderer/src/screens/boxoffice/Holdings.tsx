import { useEffect } from 'react';
import { useT } from '../../i18n/i18n';
import { useCatalog } from '../../stores/catalog';
import { useConnectivity } from '../../stores/connectivity';
import { holdingsStore, useHoldings } from '../../stores/holdings';

/**
 * Box office, per chosen date: what this till holds of each area or seat and what the venue has left (a till
 * of a hub sells only what it holds, contract §10); offline, "N left on this till". Staff give places back.
 */
export function Holdings() {
  const t = useT();
  const occurrenceId = useCatalog((state) => state.occurrenceId);
  const inventory = useCatalog((state) => state.inventory);
  const holdings = useHoldings((state) => state.holdings);
  const error = useHoldings((state) => state.error);
  const online = useConnectivity((state) => state.online !== false);

  useEffect(() => {
    void holdingsStore.getState().refreshed();
    const timer = setInterval(() => void holdingsStore.getState().refreshed(), 5000);
    return () => clearInterval(timer);
  }, []);

  if (!occurrenceId || holdings?.mode !== 'hub') return null;
  const labels = new Map((inventory?.areas ?? []).flatMap((area) => area.inventoryItems.map((item) => [item.id, item.label ?? area.name] as const)));
  const general = new Set((inventory?.areas ?? []).filter((area) => area.seating === 'general').flatMap((area) => area.inventoryItems.map((item) => item.id)));
  // Each standing area, and the seats this till holds.
  const rows = holdings.holdings.filter((row) => row.occurrenceId === occurrenceId && (general.has(row.inventoryItemId) || row.inHand > 0));
  const inHand = rows.reduce((n, row) => n + row.inHand, 0);

  return (
    <section className="holdings" aria-label={t('holdings.heading')}>
      <h3>{t('holdings.heading')}</h3>
      <ul>
        {rows.map((row) => (
          <li key={row.inventoryItemId}>
            <strong>{labels.get(row.inventoryItemId) ?? row.inventoryItemId}</strong>{' '}
            {online
              ? t('holdings.online', { held: row.sellable, venue: row.venueAvailable ?? '–' })
              : t('holdings.offline', { left: row.sellable })}
          </li>
        ))}
      </ul>
      {!online && <p role="status">{t('holdings.offlineNote')}</p>}
      {error && <p role="alert">{t('holdings.error', { code: error })}</p>}
      <button type="button" className="secondary" disabled={inHand === 0 || !online} onClick={() => void holdingsStore.getState().giveBackRequested(occurrenceId)}>
        {t('holdings.giveBack')}
      </button>
    </section>
  );
}
