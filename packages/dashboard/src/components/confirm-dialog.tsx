// A confirmation before a change that cannot be undone (capture, cancel, refund, revoke…): a modal
// <dialog>, so focus stays inside and Escape closes it, with the change's own form fields inside.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './states';

export interface ConfirmDialogProps {
  /** The button that opens the dialog. */
  trigger: string;
  title: string;
  /** The confirming button's words ("Refund €10.00"). */
  confirm: string;
  /** Runs the change; a thrown error is shown in the dialog, which stays open. */
  onConfirm: () => Promise<void>;
  children?: ComponentChildren;
  danger?: boolean;
  disabled?: boolean;
  /** A small trigger (in a table row), whose accessible name may say more than its word (`Revoke` → `Revoke sk_test_9NIC`). */
  small?: boolean;
  triggerName?: string;
}

export function ConfirmDialog({ trigger, title, confirm, onConfirm, children, danger, disabled, small, triggerName }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (open && dialog.current && !dialog.current.open) dialog.current.showModal();
    if (!open && dialog.current?.open) dialog.current.close();
  }, [open]);

  const run = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      setOpen(false);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  const titleId = `dialog-${(triggerName ?? trigger).replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <>
      <button
        type="button"
        class={`button${danger && !small ? ' button-danger' : ''}${small ? ' button-small' : ''}`}
        aria-label={triggerName}
        disabled={disabled}
        onClick={() => setOpen(true)}
      >
        {trigger}
      </button>
      {open && (
        <dialog ref={dialog} aria-labelledby={titleId} onClose={() => setOpen(false)}>
          <form onSubmit={run}>
            <h2 id={titleId}>{title}</h2>
            {children}
            {error && (
              <p class="form-error" role="alert">
                {error}
              </p>
            )}
            <div class="dialog-actions">
              <button type="button" class="button" onClick={() => setOpen(false)}>
                Back
              </button>
              <button type="submit" class={danger ? 'button button-danger' : 'button button-primary'} disabled={busy}>
                {busy ? 'Working…' : confirm}
              </button>
            </div>
          </form>
        </dialog>
      )}
    </>
  );
}
