import type { Page, PageRequest } from './store.port';

/**
 * Every item of a paged read, oldest first, page after page (a report reads its whole period). `read`
 * gets each page request with the cursor of the previous page's last item.
 */
export async function* everyItem<T extends { id: string }>(read: (page: PageRequest) => Promise<Page<T>>, pageSize = 200): AsyncGenerator<T> {
  let after: string | undefined;
  for (;;) {
    const page = await read({ limit: pageSize, order: 'asc', ...(after ? { after } : {}) });
    yield* page.items;
    if (!page.has_more || page.items.length === 0) return;
    after = page.items.at(-1)!.id;
  }
}
