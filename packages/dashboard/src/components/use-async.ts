import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export type AsyncState<T> = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; value: T };

/**
 * Runs load when a dependency changes; answers its state, a reload (shows "Loading" meanwhile) and a refresh
 * (keeps showing what it has until the new answer is in: a page that follows a change as it settles). A late
 * answer of an older run is dropped.
 */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): [AsyncState<T>, () => void, () => void] {
  const [state, setState] = useState<AsyncState<T>>({ status: 'loading' });
  const [round, setRound] = useState({ count: 0, quiet: false });
  const latest = useRef(0);
  useEffect(() => {
    const run = ++latest.current;
    if (!round.quiet) setState({ status: 'loading' });
    load().then(
      (value) => run === latest.current && setState({ status: 'ready', value }),
      (error: unknown) => run === latest.current && setState({ status: 'error', error }),
    );
  }, [...deps, round]);
  const reload = useCallback(() => setRound((value) => ({ count: value.count + 1, quiet: false })), []);
  const refresh = useCallback(() => setRound((value) => ({ count: value.count + 1, quiet: true })), []);
  return [state, reload, refresh];
}
