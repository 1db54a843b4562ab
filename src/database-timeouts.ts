/** How long anything may wait on the database; config.ts reads them from the environment. */
export interface DatabaseTimeouts {
  /** Waiting for a free pooled connection (PostgreSQL, opening one included) or SQLite's write lock. */
  acquireMs: number;
  /** Opening one PostgreSQL connection (TCP and start-up). */
  connectMs: number;
  /** One statement: PostgreSQL cancels it after this; a server that answers nothing at all is given up on too. */
  statementMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: Readonly<DatabaseTimeouts> = Object.freeze({ acquireMs: 5_000, connectMs: 5_000, statementMs: 15_000 });
