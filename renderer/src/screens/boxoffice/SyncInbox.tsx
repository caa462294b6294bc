import { useState } from 'react';
import { toApiError, type ApiError } from '../../api/errors';
import { api } from '../../api/service';
import type { SyncConflict } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../format';
import { useLocale, useT } from '../../i18n/i18n';
import { connectivityStore, useConnectivity } from '../../stores/connectivity';

/**
 * The conflict inbox: orders the upstream refused for good (sold out there, price changed, …). The local
 * order and its tickets stay valid; staff send it again or mark it resolved with a note. At a hub it also lists
 * tickets admitted twice (kind `checkin`), which are only resolved.
 */
export function SyncInbox({ onBack }: { onBack(): void }) {
  const t = useT();
  const conflicts = useConnectivity((state) => state.conflicts);
  const [error, setError] = useState<ApiError | null>(null);
  const act = async (call: () => Promise<unknown>) => {
    setError(null);
    try {
      await call();
    } catch (thrown) {
      setError(toApiError(thrown));
    }
    await connectivityStore.getState().checked();
  };
  return (
    <section className="lookup sync-inbox" aria-labelledby="sync-heading">
      <h2 id="sync-heading">{t('sync.heading')}</h2>
      <button type="button" className="secondary" onClick={onBack}>
        {t('lookup.back')}
      </button>
      {error && <ErrorAlert t={t} error={error} onDismiss={() => setError(null)} />}
      {conflicts.length === 0 ? (
        <p role="status">{t('sync.empty')}</p>
      ) : (
        <ul className="conflicts">
          {conflicts.map((conflict) => (
            <ConflictItem
              key={conflict.id}
              conflict={conflict}
              {...(!isCheckin(conflict) && { onRetry: () => act(() => api().retryConflict(conflict.id)) })}
              onResolve={(note) => act(() => (isCheckin(conflict) ? api().resolveCheckinConflict(conflict.id, note) : api().resolveConflict(conflict.id, note)))}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * A hub's DUPLICATE_ENTRY (a ticket admitted at two gates while offline, issue #26): nothing to send again, so no
 * Retry; staff note what they found and resolve it.
 */
function isCheckin(conflict: { kind: string }): boolean {
  return conflict.kind === 'checkin';
}

function ConflictItem({ conflict, onRetry, onResolve }: { conflict: SyncConflict; onRetry?: () => void; onResolve(note: string): void }) {
  const t = useT();
  const locale = useLocale();
  const [note, setNote] = useState('');
  return (
    <li className="conflict" aria-label={t('sync.order', { id: conflict.orderId })}>
      <p>
        <strong>{t('sync.order', { id: conflict.orderId })}</strong> — {t(conflict.kind === 'cancel' ? 'sync.kind.cancel' : isCheckin(conflict) ? 'sync.kind.checkin' : 'sync.kind.order')}
        {conflict.at && <> · {formatDateTime(conflict.at, locale)}</>}
      </p>
      <p className="code">{t('sync.refused', { code: conflict.code })}</p>
      {conflict.message && <p className="hint">{conflict.message}</p>}
      {onRetry && (
        <button type="button" onClick={onRetry}>
          {t('sync.retry')}
        </button>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (note.trim()) onResolve(note.trim());
        }}
      >
        <label className="field">
          {t('sync.note')}
          <input type="text" value={note} onChange={(event) => setNote(event.target.value)} />
        </label>
        <button type="submit" disabled={!note.trim()}>
          {t('sync.resolve')}
        </button>
      </form>
    </li>
  );
}
