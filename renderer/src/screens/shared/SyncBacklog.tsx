import type { Translate } from '../../i18n/i18n';
import { useConnectivity } from '../../stores/connectivity';

/** Past this age of the oldest waiting order the box office warns: the upstream may sell those places meanwhile. */
export const STALE_AFTER_SECONDS = 15 * 60;

/**
 * The box office's view of the sync backlog, from the engine's sync status: a progress bar while orders
 * drain (sent of the backlog's largest size since it was last empty, and the engine's estimate of the time
 * left), a warning once the oldest waiting order is older than 15 minutes, and an error when the upstream
 * refuses the sync key.
 */
export function SyncBacklog({ t }: { t: Translate }) {
  const waiting = useConnectivity((state) => state.waiting);
  const peak = useConnectivity((state) => state.backlogPeak);
  const rate = useConnectivity((state) => state.deliveryRate);
  const left = useConnectivity((state) => state.estimatedSecondsLeft);
  const oldest = useConnectivity((state) => state.oldestWaitingSeconds);
  const keyRejected = useConnectivity((state) => state.keyRejected);
  const draining = waiting !== null && waiting > 0 && rate > 0 && peak >= waiting;
  const duration = (seconds: number) => (seconds < 120 ? t('sync.seconds', { count: seconds }) : t('sync.minutes', { count: Math.round(seconds / 60) }));
  return (
    <>
      {keyRejected && (
        <p role="alert" className="sync-alert sync-key">
          {t('sync.keyRejected')}
        </p>
      )}
      {draining && (
        <div className="sync-backlog">
          <progress aria-label={t('sync.backlog')} max={peak} value={peak - waiting} />
          <span>{t('sync.backlogText', { sent: peak - waiting, total: peak, left: left === null ? '…' : duration(left) })}</span>
        </div>
      )}
      {oldest !== null && oldest > STALE_AFTER_SECONDS && (
        <p role="alert" className="sync-alert sync-stale">
          {t('sync.stale', { minutes: Math.floor(oldest / 60) })}
        </p>
      )}
    </>
  );
}
