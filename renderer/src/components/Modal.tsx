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
 * until it closes, Escape cancels. The first field gets the cursor, and the cursor goes back where it was after; the box office's keys
 * wait while it is open (BoxOffice.tsx).
 */
export function Modal({ id, title, className, onCancel, children }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    // the cursor goes back where it was once the dialog is gone (a drawer key pressed mid-sale)
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    element?.querySelector<HTMLElement>('input, button')?.focus();
    return () => {
      if (before?.isConnected && document.activeElement === document.body) before.focus();
    };
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
