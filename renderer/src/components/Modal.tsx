import { useEffect, useRef, type ReactNode } from 'react';

interface Props {
  /** the dialog's id: its heading is `${id}-title` and names it */
  id: string;
  title: string;
  className?: string;
  /** Escape or the cancel button */
  onCancel(): void;
  children: ReactNode;
}

/**
 * A modal dialog (the native `<dialog>` shown with showModal): its heading names it, the focus stays inside
 * until it closes, Escape cancels. The first field with `autoFocus` gets the cursor; the box office's keys
 * wait while it is open (BoxOffice.tsx).
 */
export function Modal({ id, title, className, onCancel, children }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    element?.querySelector<HTMLElement>('[autofocus], input, button')?.focus();
  }, []);
  return (
    <dialog
      ref={dialog}
      id={id}
      className={`modal ${className ?? ''}`}
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </dialog>
  );
}
