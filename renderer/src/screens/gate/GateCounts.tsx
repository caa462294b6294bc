import type { GateKey, GateTranslate } from '../../i18n/gate';
import { useGate } from '../../stores/gate';

const FIGURES: readonly { id: string; key: GateKey; of: 'inside' | 'admitted' | 'sold' | 'capacity' }[] = [
  { id: 'gate-inside', key: 'gate.inside', of: 'inside' },
  { id: 'gate-admitted', key: 'gate.admittedCount', of: 'admitted' },
  { id: 'gate-sold', key: 'gate.sold', of: 'sold' },
  { id: 'gate-capacity', key: 'gate.capacity', of: 'capacity' },
];

/** The show's counts as the engine has them (at a terminal: the hub's while it answers): Inside, Admitted, Sold, Capacity. */
export function GateCounts({ t }: { t: GateTranslate }) {
  const counts = useGate((state) => state.counts);
  return (
    <section className="gate-counts" aria-label={t('gate.counts')}>
      {FIGURES.map((figure) => (
        <div key={figure.id} className={`gate-count ${figure.of}`}>
          <label htmlFor={figure.id}>{t(figure.key)}</label>
          <output id={figure.id} aria-live="off">
            {counts === null ? '–' : counts[figure.of]}
          </output>
        </div>
      ))}
    </section>
  );
}
