/**
 * guestwifi serve | migrate | account create --email E [--json] | demo [--email E] [--days N] [--seed N]
 * Configuration comes from the environment (see README); the database from DATABASE_URL.
 */
import closeWithGrace from "close-with-grace";
import { ConfigError, loadConfig } from "../config.js";
import { createDatabase } from "../db/database.js";
import { migrateToLatest } from "../db/migrator.js";
import { accountRepository } from "../modules/accounts/accounts.repository.js";
import { AccountExistsError, createAccount } from "../modules/accounts/accounts.service.js";
import { startService } from "../server.js";
import { parseArgs } from "./args.js";
import { generateDemo } from "./demo.js";

const USAGE = `Usage: guestwifi <command>

Commands:
  serve [--no-radius] [--radius-only]   run the HTTP API + portal and the RADIUS server
  migrate                               bring the database schema up to date
  account create --email E [--json]     create an account and print its API identifier
  demo [--email E] [--days N] [--seed N]  fill the database with realistic sample data

Configuration: environment variables (see README), DATABASE_URL for the database.`;

class UsageError extends Error {}

const EMAIL_RE = /^[^\s@]+@[^\s@]+$/;

/** Opens the configured database, brings its schema up to date (unless told not to), runs fn, closes it. */
async function withDb<T>(fn: (db: ReturnType<typeof createDatabase>) => Promise<T>, migrate = true): Promise<T> {
  const config = loadConfig();
  const db = createDatabase(config.databaseUrl);
  try {
    if (migrate) await migrateToLatest(db);
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

async function serve(flags: Record<string, string | true>): Promise<void> {
  const config = loadConfig();
  const service = await startService(config, {
    http: flags["radius-only"] !== true,
    radius: flags["no-radius"] === true ? false : undefined,
  });
  if ((await accountRepository.countAccounts(service.db)) === 0) {
    const { identifier } = await createAccount(service.db, "admin@localhost");
    process.stdout.write(
      `\nFirst start on an empty database: created account admin@localhost.\n` +
        `Its API identifier (shown once, store it now):\n\n  ${identifier}\n\n`,
    );
  }
  const where = service.httpPort ? `http://${config.host}:${service.httpPort}` : "(HTTP off)";
  const radius = service.radius ? `, RADIUS auth ${service.radius.authPort}/udp acct ${service.radius.acctPort}/udp` : "";
  process.stdout.write(`guestwifi serving ${where}${radius}; API reference at ${config.publicUrl}/docs\n`);
  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) service.app.log.error({ err }, "stopping after an error");
    await service.stop();
  });
}

async function main(argv: string[]): Promise<void> {
  const { positionals, flags } = parseArgs(argv);
  const [command, sub] = positionals;
  switch (command) {
    case "serve":
      return serve(flags);
    case "migrate": {
      const applied = await withDb((db) => migrateToLatest(db), false);
      process.stdout.write(applied.length ? `applied: ${applied.join(", ")}\n` : "database is up to date\n");
      return;
    }
    case "account": {
      if (sub !== "create") throw new UsageError("account: the only subcommand is `create`");
      const email = flags.email;
      if (typeof email !== "string" || !EMAIL_RE.test(email)) throw new UsageError("account create needs --email with an e-mail address");
      const { accountId, identifier } = await withDb((db) => createAccount(db, email));
      process.stdout.write(
        flags.json ? `${JSON.stringify({ account_id: accountId, identifier })}\n` : `account ${accountId} created; identifier: ${identifier}\n`,
      );
      return;
    }
    case "demo": {
      const email = typeof flags.email === "string" ? flags.email : "demo@example.com";
      const days = flags.days === undefined ? 90 : Number(flags.days);
      const seed = flags.seed === undefined ? 42 : Number(flags.seed);
      if (!Number.isInteger(days) || days < 1 || days > 365) throw new UsageError("--days must be a whole number from 1 to 365");
      if (!Number.isInteger(seed)) throw new UsageError("--seed must be a whole number");
      await withDb(async (db) => {
        const existing = await accountRepository.findAccountByEmail(db, email);
        let accountId = existing?.id;
        if (!accountId) {
          const created = await createAccount(db, email);
          accountId = created.accountId;
          process.stdout.write(`created account ${email}; identifier: ${created.identifier}\n`);
        }
        const summary = await generateDemo(db, { accountId, days, seed, onProgress: (m) => process.stdout.write(`${m}\n`) });
        process.stdout.write(`demo data: ${JSON.stringify(summary)}\n`);
      });
      return;
    }
    case undefined:
    case "help":
      process.stdout.write(`${USAGE}\n`);
      return;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) process.stderr.write(`guestwifi: ${err.message}\n\n${USAGE}\n`);
  else if (err instanceof ConfigError || err instanceof AccountExistsError) process.stderr.write(`guestwifi: ${err.message}\n`);
  else process.stderr.write(`guestwifi: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
