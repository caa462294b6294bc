import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { Translate } from '../i18n/i18n';

/** What a destructive action asks before it acts: a title, what will happen, and the two answers. */
export interface Question {
  title: string;
  body?: ReactNode;
  confirm: string;
  cancel?: string;
}

/**
 * A modal question for an action that cannot be undone (releasing a hold, starting over, a refund). Focus
 * starts on the safe answer, so a stray Enter or Escape never confirms.
 */
export function ConfirmDialog({ t, question, onAnswer }: { t: Translate; question: Question; onAnswer(yes: boolean): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    keep.current?.focus();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="confirm"
      aria-labelledby="confirm-title"
      aria-describedby={question.body ? 'confirm-body' : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onAnswer(false);
      }}
    >
      <h2 id="confirm-title">{question.title}</h2>
      {question.body && <div id="confirm-body">{question.body}</div>}
      <div className="actions">
        <button type="button" ref={keep} className="secondary big" onClick={() => onAnswer(false)}>
          {question.cancel ?? t('confirmAction.keep')}
        </button>
        <button type="button" className="danger big" onClick={() => onAnswer(true)}>
          {question.confirm}
        </button>
      </div>
    </dialog>
  );
}

/** `ask(question)` shows the dialog and answers true only when the action was confirmed. */
export function useConfirm(t: Translate): { dialog: ReactNode; ask(question: Question): Promise<boolean> } {
  const [pending, setPending] = useState<{ question: Question; resolve(yes: boolean): void } | null>(null);
  const ask = useCallback((question: Question) => new Promise<boolean>((resolve) => setPending({ question, resolve })), []);
  const dialog = pending ? (
    <ConfirmDialog
      t={t}
      question={pending.question}
      onAnswer={(yes) => {
        setPending(null);
        pending.resolve(yes);
      }}
    />
  ) : null;
  return { dialog, ask };
}
