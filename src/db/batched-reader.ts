/**
 * Reads that arrive together (in one poll round of the event loop) answered by one statement: on
 * PostgreSQL each statement is a round trip, and our CPU per round trip (the socket write and
 * read, pg's parsing, Kysely's executor) is most of what a small indexed read costs. Under a
 * venue's MAC re-authorisations a batch carries dozens; alone, a read waits one turn of the loop.
 * The database is read every time (nothing is kept), so what another instance wrote is seen as by
 * a read of its own. If the statement fails, every read of its batch fails with it.
 */

/** Reads `keys` in one statement: one answer per key, in order. */
export type ReadBatch<K, R> = (keys: K[]) => Promise<R[]>;

/** Bounds the statement's size (and its arrays' parameters). */
const MAX_BATCH = 256;

interface Pending<K, R> {
  key: K;
  resolve(result: R): void;
  reject(err: unknown): void;
}

export function createBatchedReader<K, R>(readBatch: ReadBatch<K, R>): (key: K) => Promise<R> {
  let queue: Pending<K, R>[] = [];
  const flush = () => {
    const all = queue;
    queue = [];
    for (let from = 0; from < all.length; from += MAX_BATCH) {
      const batch = all.slice(from, from + MAX_BATCH);
      readBatch(batch.map((p) => p.key)).then(
        (results) => {
          for (let i = 0; i < batch.length; i++) batch[i].resolve(results[i]);
        },
        (err: unknown) => {
          for (const p of batch) p.reject(err);
        },
      );
    }
  };
  return (key) =>
    new Promise<R>((resolve, reject) => {
      // The check phase, after every datagram of this poll round was read: they all join.
      if (queue.length === 0) setImmediate(flush);
      queue.push({ key, resolve, reject });
    });
}
