/** The items of a paged list (the SDK's `list`), up to `limit` of those that `keep` accepts; pages are fetched only as needed. */
export async function collect<Item>(items: AsyncIterable<Item>, limit = Number.POSITIVE_INFINITY, keep: (item: Item) => boolean = () => true): Promise<Item[]> {
  const found: Item[] = [];
  if (limit <= 0) return found;
  for await (const item of items) {
    if (!keep(item)) continue;
    found.push(item);
    if (found.length >= limit) break;
  }
  return found;
}
