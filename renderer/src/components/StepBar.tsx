/** The kiosk's steps, always the same three, with the current one marked (aria-current="step"). */
export function StepBar({ label, steps, current }: { label: string; steps: readonly string[]; current: number }) {
  return (
    <nav className="step-bar" aria-label={label}>
      <ol>
        {steps.map((name, index) => (
          <li key={name} className={index < current ? 'is-done' : index === current ? 'is-current' : undefined} aria-current={index === current ? 'step' : undefined}>
            <span className="step-number" aria-hidden="true">
              {index + 1}
            </span>{' '}
            {name}
          </li>
        ))}
      </ol>
    </nav>
  );
}
