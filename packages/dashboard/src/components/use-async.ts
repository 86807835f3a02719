import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export type AsyncState<T> = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; value: T };

/** A state and the generation of dependencies it was loaded for. */
type Loaded<T> = AsyncState<T> & { generation: number };

/**
 * Runs load when a dependency changes; answers its state, a reload (shows "Loading" meanwhile) and a refresh
 * (keeps showing what it has until the new answer is in: a page that follows a change as it settles). A late
 * answer of an older run is dropped, and what was loaded for other dependencies is never shown: the render
 * right after a change (before the effect that loads runs) is "Loading", not the old answer under the new
 * dependencies (a list's "Page 2" over page 1's rows).
 */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): [AsyncState<T>, () => void, () => void] {
  const generation = useGeneration(deps);
  const [state, setState] = useState<Loaded<T>>({ status: 'loading', generation });
  const [round, setRound] = useState({ count: 0, quiet: false });
  const latest = useRef(0);
  useEffect(() => {
    const run = ++latest.current;
    if (!round.quiet) setState({ status: 'loading', generation });
    load().then(
      (value) => run === latest.current && setState({ status: 'ready', value, generation }),
      (error: unknown) => run === latest.current && setState({ status: 'error', error, generation }),
    );
  }, [...deps, round]);
  const reload = useCallback(() => setRound((value) => ({ count: value.count + 1, quiet: false })), []);
  const refresh = useCallback(() => setRound((value) => ({ count: value.count + 1, quiet: true })), []);
  return [state.generation === generation ? state : { status: 'loading' }, reload, refresh];
}

/** A number that grows each time one of `deps` differs (Object.is) from the previous render's. */
function useGeneration(deps: unknown[]): number {
  const seen = useRef<{ deps: unknown[]; generation: number } | null>(null);
  const previous = seen.current;
  if (!previous || previous.deps.length !== deps.length || deps.some((dep, at) => !Object.is(dep, previous.deps[at]))) {
    seen.current = { deps, generation: (previous?.generation ?? 0) + 1 };
  }
  return seen.current!.generation;
}
