/**
 * PostgreSQL's side of changeGeneration, for the catalogue tables only (accounts, identifiers,
 * sub-users, locations and their options, devices, campaigns: what hot reads cache). Several
 * instances share the database, so a row cached here may be changed by another one:
 * - every write to a catalogue table fires a statement trigger (the baseline
 *   migration's catalogueNotifications) that NOTIFYs `guestwifi_catalogue` with the schema's
 *   name; each instance LISTENs on a connection of its own and moves its generation on when its
 *   schema is named, as soon as the commit is delivered;
 * - this instance's own writes move it at once: when the statement returns and again when its
 *   connection goes back to the pool (after the commit), so a read that raced the write is not kept
 *   (see ReadCache.load) and a read after the answer never sees the old row;
 * - while the listening connection is not up (starting, lost, the database away) there is no
 *   generation at all, so nothing is cached, and it is moved on when listening starts again.
 */
import type pg from "pg";
import { pgModule } from "./pg-module.js";
export { writesCatalogue } from "./catalogue.js";

export const CATALOGUE_CHANNEL = "guestwifi_catalogue";


const RECONNECT_MS = 1_000;

export class PgChangeWatch {
  private counter = 0;
  private listening = false;
  private client: pg.Client | undefined;
  private starting = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  /** The listening connection's backend pid, while it listens. */
  listenerPid: number | undefined;

  constructor(private readonly config: pg.ClientConfig) {}

  /** Undefined while not listening (nothing may be cached); starts listening on first use. */
  generation(): string | undefined {
    if (!this.listening) {
      this.start();
      return undefined;
    }
    return String(this.counter);
  }

  /** A write of this instance (committed, or about to be). */
  noteLocalWrite(): void {
    this.counter++;
  }

  private start(): void {
    if (this.starting || this.stopped || this.timer) return;
    this.starting = true;
    const client = new (pgModule().Client)(this.config);
    this.client = client;
    const lost = () => {
      if (this.client !== client) return;
      this.listening = false;
      this.listenerPid = undefined;
      this.client = undefined;
      this.counter++;
      client.end().catch(() => undefined);
      if (!this.stopped) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
        }, RECONNECT_MS);
        this.timer.unref();
      }
    };
    client.on("error", lost);
    client.on("end", lost);
    client
      .connect()
      .then(async () => {
        const me = (await client.query<{ s: string; pid: number }>("select current_schema() as s, pg_backend_pid() as pid")).rows[0];
        const schema = me?.s ?? "public";
        client.on("notification", (n) => {
          if (n.channel === CATALOGUE_CHANNEL && n.payload === schema) this.counter++;
        });
        await client.query(`LISTEN ${CATALOGUE_CHANNEL}`);
        if (this.client !== client || this.stopped) return;
        this.counter++;
        this.listenerPid = me?.pid;
        this.listening = true;
      })
      .catch(lost)
      .finally(() => {
        this.starting = false;
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    if (this.timer) clearTimeout(this.timer);
    const c = this.client;
    this.client = undefined;
    if (c) await c.end().catch(() => undefined);
  }
}
