import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export type AsyncState<T> = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; value: T };

/** Runs load when a dependency changes; answers its state and a reload. A late answer of an older run is dropped. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): [AsyncState<T>, () => void] {
  const [state, setState] = useState<AsyncState<T>>({ status: 'loading' });
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const run = ++latest.current;
    setState({ status: 'loading' });
    load().then(
      (value) => run === latest.current && setState({ status: 'ready', value }),
      (error: unknown) => run === latest.current && setState({ status: 'error', error }),
    );
  }, [...deps, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return [state, reload];
}
