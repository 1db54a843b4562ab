/** guestwifi copy-database --to URL: the configured SQLite database, copied whole into an empty PostgreSQL one. */
import { loadConfig } from "../config.js";
import { createDatabase } from "../db/database.js";
import { type Command, type CommandSpec, UsageError, commandHelp } from "./command-line.js";
import { CopyDatabaseError, copyDatabase } from "./copy-database.js";

const spec: CommandSpec = {
  name: "copy-database",
  summary: "copy the SQLite database into an empty PostgreSQL database",
  description:
    "Copies everything (accounts, secrets, identifiers, guests, logins, aggregates, sessions, webhooks,\n" +
    "vouchers, messages) from the SQLite database of DATABASE_URL into the PostgreSQL database of --to,\n" +
    "which must be empty (it is migrated first). One transaction: on any error, or if the row counts and\n" +
    "totals of the two differ at the end, nothing is written. The service may keep running meanwhile;\n" +
    "what it writes after the copy starts is not copied, so stop it before the final copy.",
  options: { to: { value: "URL", required: true, help: "the PostgreSQL database (postgres://user@host:5432/db)" } },
};

export const copyDatabaseCommand: Command = {
  spec,
  async run(flags) {
    const to = String(flags.to);
    if (!/^postgres(ql)?:\/\//.test(to)) throw new UsageError("--to must be a PostgreSQL URL (postgres://…)", commandHelp(spec), spec.name);
    const config = loadConfig();
    if (!config.databaseUrl.startsWith("sqlite:")) {
      throw new CopyDatabaseError("copy-database copies from SQLite; DATABASE_URL is already a PostgreSQL database");
    }
    const started = Date.now();
    const source = createDatabase(config.databaseUrl, { timeouts: config.databaseTimeouts });
    // Not the request timeout on the target: one statement carries thousands of rows.
    const target = createDatabase(to, { poolSize: 2, timeouts: { ...config.databaseTimeouts, statementMs: 600_000 } });
    try {
      const report = await copyDatabase(source, target, (line) => process.stdout.write(`${line}\n`));
      process.stdout.write(
        `copied ${report.rows} rows in ${report.tables.filter((t) => t.rows > 0).length} tables to PostgreSQL; row counts and ${report.checkedSums} column totals match (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
      );
    } finally {
      await source.destroy();
      await target.destroy();
    }
  },
};
