// A secret the API shows once (a new key, a webhook signing secret): shown in a field to copy, never stored,
// gone when dismissed.
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  return (
    <div class="secret-once" role="status">
      <label for="secret-once">{label}: copy it now, it is not shown again</label>
      <input id="secret-once" class="mono" readOnly value={secret} onFocus={(event) => (event.target as HTMLInputElement).select()} />
      <button type="button" class="button" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}
