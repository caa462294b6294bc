import { useEffect } from 'react';
import { formatMoney, formatTime } from '../../format';
import { useLocale } from '../../i18n/i18n';
import { useShiftT } from '../../i18n/shifts';
import { useCatalog } from '../../stores/catalog';
import { drawerStore, useDrawer } from '../../stores/drawer';
import { watchDrawer } from '../../stores/drawer-watch';

/**
 * The drawer in the header: "Drawer open since 14:05 · expected €312.50" (the time on the venue's clock, the
 * amount the engine's report expects — never added up here) or "Drawer closed". Its actions are beside the
 * events (DrawerButtons) and on keys (docs/ui.md, "The cash drawer"): the header stays one row at 1080 px wide.
 */
export function DrawerIndicator() {
  const t = useShiftT();
  const locale = useLocale();
  const shift = useDrawer((state) => state.shift);
  const expected = useDrawer((state) => state.expected);
  const loaded = useDrawer((state) => state.loaded);
  const timeZone = useCatalog((state) => state.locations.find((location) => location.timeZone !== undefined)?.timeZone);
  useEffect(() => watchDrawer(), []);
  if (!loaded) return null;
  return (
    <div className={`drawer ${shift ? 'is-open' : 'is-closed'}`} role="group" aria-label={t('drawer.label')}>
      <p className="drawer-state" role="status">
        {shift ? (
          <>
            <span className="since">{t('drawer.openSince', { time: formatTime(shift.openedAt, locale, timeZone) })}</span>
            {expected && (
              <span className="expected">
                <span className="separator"> · </span>
                {t('drawer.expected', { amount: formatMoney(expected, locale) })}
              </span>
            )}
          </>
        ) : (
          t('drawer.closed')
        )}
      </p>
    </div>
  );
}

/**
 * The drawer's actions, beside the sale: `Open drawer` while it is closed; `Pay in`, `Pay out`, `Close shift` while
 * it is open; and the manager's `Shifts`.
 */
export function DrawerButtons({ onShifts }: { onShifts(): void }) {
  const t = useShiftT();
  const shift = useDrawer((state) => state.shift);
  const loaded = useDrawer((state) => state.loaded);
  const ask = drawerStore.getState().dialogRequested;
  return (
    <div className="drawer-buttons" role="group" aria-label={t('drawer.actions')}>
      {!loaded ? null : shift ? (
        <>
          <button type="button" className="secondary" aria-keyshortcuts="Shift+F3" onClick={() => ask('payIn')}>
            {t('drawer.payIn')}
          </button>
          <button type="button" className="secondary" aria-keyshortcuts="Shift+F4" onClick={() => ask('payOut')}>
            {t('drawer.payOut')}
          </button>
          <button type="button" className="secondary" aria-keyshortcuts="Shift+F9" onClick={() => ask('close')}>
            {t('drawer.close')}
          </button>
        </>
      ) : (
        <button type="button" className="secondary" aria-keyshortcuts="Shift+F2" onClick={() => ask('open')}>
          {t('drawer.open')}
        </button>
      )}
      <button type="button" className="secondary" aria-keyshortcuts="Shift+F8" onClick={onShifts}>
        {t('shifts.open')}
      </button>
    </div>
  );
}
