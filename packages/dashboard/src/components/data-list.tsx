// Every list that can grow: a table of one page of a list route, paged by cursor (starting_after = the
// previous page's next_cursor), with its loading, empty and error states.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Page } from '../api/clients';
import { Empty, ErrorState, Loading } from './states';
import { useAsync } from './use-async';

export interface Column<Item> {
  header: string;
  cell: (item: Item) => ComponentChildren;
  /** Numbers align right. */
  numeric?: boolean;
}

export interface DataListProps<Item> {
  /** Names the table for assistive technology and the loading message ("payments"). */
  label: string;
  /** One page from a cursor (undefined: the first page). */
  load: (cursor: string | undefined) => Promise<Page<Item>>;
  /** What the list depends on (filters, a counter bumped after a change): a change starts again from the first page. JSON-comparable values. */
  deps: unknown[];
  columns: Array<Column<Item>>;
  rowKey: (item: Item) => string;
  empty: ComponentChildren;
}

export const PAGE_SIZE = 20;

export function DataList<Item>({ label, load, deps, columns, rowKey, empty }: DataListProps<Item>) {
  // The cursors of the pages up to this one (Previous pops, Next pushes), kept for one set of deps: when a
  // filter changes, the list starts again from the first page in the same render, no request for the old page.
  const depsKey = JSON.stringify(deps);
  const [paging, setPaging] = useState<{ depsKey: string; cursors: Array<string | undefined> }>({ depsKey, cursors: [undefined] });
  const cursors = paging.depsKey === depsKey ? paging.cursors : [undefined];
  const setCursors = (next: Array<string | undefined>) => setPaging({ depsKey, cursors: next });
  const cursor = cursors[cursors.length - 1];
  const [state, reload] = useAsync(() => load(cursor), [depsKey, cursor]);

  if (state.status === 'loading') return <Loading what={label} />;
  if (state.status === 'error') return <ErrorState error={state.error} retry={reload} />;
  const page = state.value;
  const pageNumber = cursors.length;
  return (
    <div class="data-list">
      {page.data.length === 0 ? (
        <Empty>{empty}</Empty>
      ) : (
        <div class="table-scroll">
          <table>
            <caption class="visually-hidden">
              {label}, page {pageNumber}
            </caption>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th scope="col" class={column.numeric ? 'numeric' : undefined} key={column.header}>
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {page.data.map((item) => (
                <tr key={rowKey(item)}>
                  {columns.map((column) => (
                    <td class={column.numeric ? 'numeric' : undefined} key={column.header}>
                      {column.cell(item)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(pageNumber > 1 || page.has_more) && (
        <nav class="pager" aria-label={`Pages of ${label}`}>
          <button type="button" class="button" disabled={pageNumber === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
            Previous page
          </button>
          <span>Page {pageNumber}</span>
          <button
            type="button"
            class="button"
            disabled={!page.has_more || !page.next_cursor}
            onClick={() => page.next_cursor && setCursors([...cursors, page.next_cursor])}
          >
            Next page
          </button>
        </nav>
      )}
    </div>
  );
}
