import { useState } from 'react';
import { createClient } from '../../api/client';
import { toApiError } from '../../api/errors';
import { useGateT } from '../../i18n/gate';
import { useSession } from '../../stores/session';
import './gate.css';

/**
 * A gate on another device of the LAN (a phone): the engine hands its page keys to its own machine only, so
 * staff enter a key with the gate's scopes once. It is tried (GET /sync/status) before it is kept.
 */
export function GateKeyEntry({ apiBase, onKey }: { apiBase: string; onKey(key: string): void }) {
  const t = useGateT();
  const language = useSession((state) => state.language);
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <main className="gate gate-key">
      <h1 className="gate-heading">{t('gate.heading')}</h1>
      <p>{t('gate.keyHint')}</p>
      <form
        className="gate-entry"
        onSubmit={(event) => {
          event.preventDefault();
          const entered = key.trim();
          if (entered === '' || busy) return;
          setBusy(true);
          setProblem(null);
          createClient({ baseUrl: apiBase, apiKey: entered, language: () => language })
            .syncStatus()
            .then(
              () => onKey(entered),
              (thrown: unknown) => {
                const error = toApiError(thrown);
                setProblem(error.status === 401 || error.status === 403 ? t('gate.keyRefused') : t('gate.keyFailed', { reason: error.message }));
                setBusy(false);
              },
            );
        }}
      >
        <label htmlFor="gate-key">{t('gate.key')}</label>
        <div className="gate-entry-row">
          <input id="gate-key" value={key} onChange={(event) => setKey(event.target.value)} autoFocus autoComplete="off" spellCheck={false} />
          <button type="submit" disabled={busy}>
            {t('gate.keyUse')}
          </button>
        </div>
      </form>
      {problem !== null && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
    </main>
  );
}
