import { useEffect, useMemo, useRef, useState } from 'react';
import { formatShortDateTime, formatTime } from '../../format';
import { useGateT } from '../../i18n/gate';
import { useLocale } from '../../i18n/i18n';
import { catalogStore, useCatalog } from '../../stores/catalog';
import { gateStore, useGate } from '../../stores/gate';
import { Camera } from './Camera';
import { GateCounts } from './GateCounts';
import { gateShows } from './shows';
import { nextBurst } from './scan-burst';
import { beep } from './sound';
import { verdictOf } from './verdict';
import './gate.css';

/** How often the show's counts are read again while nothing is scanned (other gates admit people too). */
const COUNTS_EVERY_MS = 5000;

/**
 * The gate (`?mode=gate`, contract §9 "Gate", §15): door staff pick the show, then scan — a keyboard-wedge
 * scanner types into `Ticket code` (which keeps the focus) and presses Enter, the camera decodes a QR into the
 * same path — and see one verdict at a time, large, green or red, with a sound and the reason in words.
 */
export function Gate() {
  const t = useGateT();
  const locale = useLocale();
  const events = useCatalog((state) => state.events);
  const locations = useCatalog((state) => state.locations);
  const occurrenceId = useGate((state) => state.occurrenceId);
  const gateName = useGate((state) => state.gateName);
  const direction = useGate((state) => state.direction);
  const outcome = useGate((state) => state.outcome);
  const seq = useGate((state) => state.seq);
  const busy = useGate((state) => state.busy);
  const [code, setCode] = useState('');
  const field = useRef<HTMLInputElement>(null);
  const nameField = useRef<HTMLInputElement>(null);
  const refocus = () => field.current?.focus();
  const shows = useMemo(() => gateShows(events, locations, new Date()), [events, locations]);
  const chosen = shows.find((show) => show.occurrenceId === occurrenceId);

  useEffect(() => void catalogStore.getState().eventsRequested(), []);
  useEffect(() => {
    // a show not (or no longer) in the catalog: the first of the list (today's first)
    const first = shows[0];
    if (first !== undefined && chosen === undefined) gateStore.getState().showChosen(first.occurrenceId);
  }, [shows, chosen]);
  useEffect(() => {
    void gateStore.getState().countsRefreshed();
    const timer = setInterval(() => void gateStore.getState().countsRefreshed(), COUNTS_EVERY_MS);
    return () => clearInterval(timer);
  }, [occurrenceId]);
  useEffect(() => {
    const latest = gateStore.getState().outcome;
    if (seq === 0 || latest === null) return;
    beep(latest.kind === 'answer');
    field.current?.focus();
  }, [seq]);
  useEffect(() => {
    // A scanner's characters reach the code field wherever the focus was left: on the page or a button after a tap,
    // on `Show` after its list was opened and closed (its type-to-jump is given up for this; arrows still choose),
    // and on `Gate name`, where a burst too fast for a person is a scan: it leaves the name as it was.
    let burst: ReturnType<typeof nextBurst> | undefined;
    const onKey = (event: KeyboardEvent) => {
      const target = document.activeElement;
      const printable = event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
      const name = nameField.current;
      if (name !== null && target === name && printable) {
        burst = nextBurst(burst, event.key, event.timeStamp, name.value);
        if (!burst.isScan) return;
        event.preventDefault();
        gateStore.getState().gateNamed(burst.burst.before);
        setCode(burst.burst.chars);
        burst = undefined;
        field.current?.focus();
        return;
      }
      burst = undefined;
      const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;
      if (!typing && printable && event.key !== ' ') field.current?.focus();
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, []);

  const zoneOf = (id?: string) => shows.find((show) => show.occurrenceId === id)?.timeZone ?? chosen?.timeZone;
  const verdict = outcome && verdictOf(outcome, t, {
    when: (iso, id) => formatShortDateTime(iso, locale, zoneOf(id)),
    time: (iso) => formatTime(iso, locale, chosen?.timeZone),
  });

  return (
    <main className={`gate${direction === 'out' ? ' is-exit' : ''}`}>
      <h2 className="gate-heading">{t('gate.heading')}</h2>
      <div className="gate-show">
        <label htmlFor="gate-show">{t('gate.show')}</label>
        {/* the start first: a phone shows the start of the line, and tonight's shows differ by their time */}
        <select
          id="gate-show"
          value={occurrenceId ?? ''}
          onChange={(event) => {
            gateStore.getState().showChosen(event.target.value);
            refocus();
          }}
        >
          {shows.length === 0 && <option value="">{t('gate.noShows')}</option>}
          {shows.map((show) => (
            <option key={show.occurrenceId} value={show.occurrenceId}>
              {`${formatShortDateTime(show.startsAt, locale, show.timeZone)} · ${show.eventName}`}
            </option>
          ))}
        </select>
      </div>
      <form
        className="gate-entry"
        onSubmit={(event) => {
          event.preventDefault();
          void gateStore.getState().codeSubmitted(code);
          setCode('');
          refocus();
        }}
      >
        <label htmlFor="gate-code">{t('gate.code')}</label>
        <div className="gate-entry-row">
          <input
            id="gate-code"
            ref={field}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            onBlur={(event) => {
              // the field keeps the focus: a tap on nothing in particular gives it back at once
              if (event.relatedTarget === null) setTimeout(refocus, 0);
            }}
            autoFocus
            autoComplete="off"
            autoCapitalize="characters"
            autoCorrect="off"
            spellCheck={false}
            enterKeyHint="go"
            maxLength={600}
          />
          <button type="submit">{t('gate.check')}</button>
        </div>
      </form>
      <div className="gate-verdict-area" aria-busy={busy}>
        {verdict ? (
          <div key={seq} className={`gate-verdict ${verdict.ok ? 'is-ok' : 'is-refused'}`} role={verdict.ok ? 'status' : 'alert'}>
            <p>
              <strong className="gate-word">{verdict.word}</strong>
              {verdict.reason !== '' && ' '}
              {verdict.reason !== '' && <span className="gate-reason">{verdict.reason}</span>}
            </p>
            {verdict.ticket !== undefined && <p className="gate-ticket">{verdict.ticket}</p>}
          </div>
        ) : (
          <div className="gate-verdict is-idle" role="status">
            <p>{busy ? t('gate.checking') : t('gate.ready')}</p>
          </div>
        )}
      </div>
      <GateCounts t={t} />
      <div className="gate-controls">
        <button
          type="button"
          className="gate-toggle"
          aria-pressed={direction === 'out'}
          onClick={() => {
            gateStore.getState().directionToggled();
            refocus();
          }}
        >
          {t('gate.exit')}
        </button>
        <Camera t={t} onCode={(text) => void gateStore.getState().codeSubmitted(text)} onToggled={refocus} />
        <div className="gate-name">
          <label htmlFor="gate-name">{t('gate.name')}</label>
          <input
            id="gate-name"
            ref={nameField}
            value={gateName}
            maxLength={40}
            placeholder="main"
            autoComplete="off"
            onChange={(event) => gateStore.getState().gateNamed(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                refocus();
              }
            }}
          />
        </div>
      </div>
      {direction === 'out' && <p className="gate-exit-hint">{t('gate.exitHint')}</p>}
    </main>
  );
}
