/**
 * guestwifi serve | migrate | account create | account set-password | backup | copy-database | demo | guest export | guest erase | mail test |
 * quick-report | help. Each command's options are declared
 * in COMMANDS and checked before it runs (command-line.ts); `--help` works everywhere.
 * Exit codes: 0 done, 1 failed (configuration, database), 2 command line refused, 128+n on signal n.
 * Configuration comes from the environment (see README); the database from DATABASE_URL.
 */
import closeWithGrace from "close-with-grace";
import { type Config, ConfigError, loadConfig } from "../config.js";
import { migrateToLatest } from "../db/migrator.js";
import { createLogger, stdoutDestination } from "../logger.js";
import { OwnerPasswordError, createAccount, ownerPasswordProblem, setOwnerPassword } from "../modules/accounts/accounts.service.js";
import {
  type Command,
  type CommandSpec,
  type Flags,
  UsageError,
  asksForHelp,
  columns,
  commandHelp,
  parseOptions,
  usageLine,
} from "./command-line.js";
import { backupCommand } from "./backup-command.js";
import { copyDatabaseCommand } from "./copy-database-command.js";
import { demoCommand } from "./demo-command.js";
import { guestEraseCommand, guestExportCommand } from "./guest-command.js";
import { mailTestCommand, quickReportCommand } from "./messages-command.js";
import { recordCliAudit } from "../modules/audit/audit.service.js";
import { EMAIL_RE, withDb } from "./with-db.js";

const serveSpec: CommandSpec = {
  name: "serve",
  summary: "run the HTTP API + portal and the RADIUS server",
  description: "Runs the service until SIGINT or SIGTERM, then stops cleanly. On an empty database it creates the account\nadmin@localhost, prints its API identifier once and how to set its password.",
  options: {
    "no-radius": { help: "run HTTP only" },
    "radius-only": { help: "run RADIUS only" },
  },
};

async function serve(flags: Flags): Promise<void> {
  if (flags["radius-only"] && flags["no-radius"]) {
    throw new UsageError("--radius-only and --no-radius cannot be used together", commandHelp(serveSpec), "serve");
  }
  // What the service says about itself (the first account's identifier, where it listens, why it
  // could not start) goes out as JSON log lines like every other, whatever LOG_LEVEL says: the
  // identifier is shown once, and an operator must see where it listens or why it stopped.
  // One stream for both loggers: their lines stay whole and in order.
  const stdout = stdoutDestination();
  const announce = createLogger({ level: "info", stream: stdout });
  try {
    const config = loadConfig();
    // Loaded here, not at the top: the other commands do not need the HTTP app and RADIUS server.
    const { startService } = await import("../server.js");
    const service = await startService(config, {
      logger: { level: config.logLevel, stream: stdout },
      http: flags["radius-only"] !== true,
      // --radius-only runs RADIUS whatever RADIUS_ENABLED says; --no-radius never does.
      radius: flags["no-radius"] === true ? false : flags["radius-only"] === true ? true : undefined,
    });
    const deps = service.app.deps;
    if ((await deps.repos.accounts.countAccounts(deps.db)) === 0) {
      const { accountId, identifier } = await createAccount(deps, "admin@localhost");
      announce.info(
        { accountId, email: "admin@localhost" },
        `First start on an empty database: created the account admin@localhost. Its API identifier (shown once, store it now): ${identifier}`,
      );
      announce.info(
        { email: "admin@localhost" },
        "To set the password of admin@localhost, type it on standard input of: guestwifi account set-password --email admin@localhost",
      );
    }
    announce.info(serving(config, service.httpUrls, service.radius), servingSentence(config, service.httpUrls, service.radius));
    // Its own messages (a second signal, the 10 s limit) go to our logger: JSON like the rest.
    closeWithGrace({ delay: 10_000, logger: { error: (m: unknown) => announce.error(m instanceof Error ? { err: m } : {}, m instanceof Error ? m.message : String(m)) } }, async ({ err }) => {
      if (err) service.app.log.error({ err }, "stopping after an error");
      await service.stop();
    });
  } catch (err) {
    announce.fatal({ code: (err as { code?: unknown }).code }, `guestwifi serve could not start: ${err instanceof ConfigError ? err.message : oneLine(err)}`);
    throw err;
  }
}

interface RadiusPorts {
  authPort: number;
  acctPort: number;
}

/** The start-up line's fields: the addresses actually bound (PORT=0 and the like show the real port). */
function serving(config: Readonly<Config>, httpUrls: string[], radius: RadiusPorts | undefined): object {
  return {
    http: httpUrls.length ? httpUrls : null,
    publicUrl: httpUrls.length ? config.publicUrl : undefined,
    radius: radius ? { host: config.radius.host, authPort: radius.authPort, acctPort: radius.acctPort } : null,
  };
}

function servingSentence(config: Readonly<Config>, httpUrls: string[], radius: RadiusPorts | undefined): string {
  const host = config.radius.host.includes(":") ? `[${config.radius.host}]` : config.radius.host;
  const udp = radius ? `RADIUS authentication ${host}:${radius.authPort}/udp, accounting ${host}:${radius.acctPort}/udp` : "RADIUS off";
  if (httpUrls.length === 0) return `guestwifi serving RADIUS only: ${udp.slice("RADIUS ".length)}; HTTP off`;
  return `guestwifi serving ${httpUrls.join(" and ")} (API reference at ${httpUrls[0]}/docs; public URL ${config.publicUrl}); ${udp}`;
}

const accountCreateSpec: CommandSpec = {
  name: "account create",
  summary: "create an account and print its API identifier",
  description:
    "Creates an account and prints its API identifier, once: store it. With --password-stdin the owner's\n" +
    "password is read from standard input (one line, the trailing newline is dropped; at least 10 characters),\n" +
    "e.g. printf '%s\\n' \"$PASSWORD\" | guestwifi account create --email E --password-stdin",
  options: {
    email: { value: "E", required: true, help: "the account's e-mail address (unique)" },
    "password-stdin": { help: "read the owner's password from standard input" },
    json: { help: 'print {"account_id":..,"identifier":".."} instead of a sentence' },
  },
};

const setPasswordSpec: CommandSpec = {
  name: "account set-password",
  summary: "set or reset an account owner's password (read from standard input)",
  description:
    "Sets the password of the owner of the account with this e-mail, replacing any earlier one. The password\n" +
    "is read from standard input (one line, the trailing newline is dropped; at least 10 characters). On a\n" +
    "terminal, type it and press Enter (it is shown as typed). Stored only as a salted scrypt hash.",
  options: {
    email: { value: "E", required: true, help: "the e-mail address the account was created with" },
  },
};

/**
 * The password on standard input: everything up to the end (or up to the first newline on a
 * terminal), one trailing newline dropped. Refused (exit code 2) when empty, too short or not one line.
 */
async function passwordFromStdin(spec: CommandSpec): Promise<string> {
  const terminal = process.stdin.isTTY === true;
  if (terminal) process.stderr.write("Password: ");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (terminal && (chunk as Buffer).includes(10)) break;
  }
  let text = Buffer.concat(chunks).toString("utf8");
  if (terminal) text = text.split("\n")[0];
  text = text.replace(/\r?\n$/, "");
  const problem = ownerPasswordProblem(text);
  if (problem) throw new UsageError(`${problem} (read from standard input)`, commandHelp(spec), spec.name);
  return text;
}

/** Wrong passwords are refused like a wrong command line: exit code 2, with the command's usage. */
function refusedPassword(spec: CommandSpec, err: unknown): never {
  if (err instanceof OwnerPasswordError) throw new UsageError(err.message, commandHelp(spec), spec.name);
  throw err;
}

const COMMANDS: Command[] = [
  { spec: serveSpec, run: serve },
  {
    spec: {
      name: "migrate",
      summary: "bring the database schema up to date",
      description: "Applies the migrations the database has not had yet (serve does the same on start).",
      options: {},
    },
    async run() {
      const applied = await withDb(({ db }) => migrateToLatest(db), { migrate: false, create: true });
      process.stdout.write(applied.length ? `applied: ${applied.join(", ")}\n` : "database is up to date\n");
    },
  },
  {
    spec: accountCreateSpec,
    async run(flags) {
      const email = String(flags.email);
      if (!EMAIL_RE.test(email)) throw new UsageError("--email must be an e-mail address", commandHelp(accountCreateSpec), "account create");
      const password = flags["password-stdin"] ? await passwordFromStdin(accountCreateSpec) : undefined;
      const { accountId, identifier } = await withDb(async (ctx) => {
        const made = await createAccount(ctx, email, password);
        await recordCliAudit(ctx, made.accountId, "account create", { account_id: [made.accountId] }, { email, password });
        return made;
      }, { create: true }).catch((err) =>
        refusedPassword(accountCreateSpec, err),
      );
      process.stdout.write(
        flags.json ? `${JSON.stringify({ account_id: accountId, identifier })}\n` : `account ${accountId} created; identifier: ${identifier}\n`,
      );
    },
  },
  backupCommand,
  copyDatabaseCommand,
  {
    spec: setPasswordSpec,
    async run(flags) {
      const email = String(flags.email);
      const password = await passwordFromStdin(setPasswordSpec);
      await withDb(async (ctx) => {
        await setOwnerPassword(ctx, email, password);
        const account = await ctx.repos.accounts.findAccountByEmail(ctx.db, email);
        if (account) await recordCliAudit(ctx, account.id, "account set-password", {}, { password });
      }).catch((err) => refusedPassword(setPasswordSpec, err));
      process.stdout.write(`password of ${email} set\n`);
    },
  },
  demoCommand,
  guestExportCommand,
  guestEraseCommand,
  mailTestCommand,
  quickReportCommand,
];

const commandRows = (commands: Command[]) => commands.map((c): [string, string] => [usageLine(c.spec), c.spec.summary]);

const USAGE = [
  "Usage: guestwifi <command> [options]",
  "",
  "Commands:",
  ...columns([...commandRows(COMMANDS), ["help [command]", "show a command's help (also: guestwifi <command> --help)"]]),
  "",
  "Configuration: environment variables (see README), DATABASE_URL for the database.",
].join("\n");

/** Help of a command, or of a group of them ("account"). */
function helpOf(words: string[]): string | undefined {
  const name = words.join(" ");
  const exact = COMMANDS.find((c) => c.spec.name === name);
  if (exact) return commandHelp(exact.spec);
  const group = COMMANDS.filter((c) => c.spec.name.startsWith(`${name} `));
  if (!name || group.length === 0) return undefined;
  return [`Usage: guestwifi ${name} <subcommand> [options]`, "", "Subcommands:", ...columns(commandRows(group))].join("\n");
}

async function main(argv: string[]): Promise<void> {
  if (argv.length === 0 || argv[0] === "-h" || argv[0] === "--help") {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (argv[0] === "help") {
    const words = argv.slice(1);
    const help = words.length === 0 ? USAGE : helpOf(words);
    if (!help) throw new UsageError(`unknown command "${words.join(" ")}"`, USAGE);
    process.stdout.write(`${help}\n`);
    return;
  }
  // A command is one word, or two for a group ("account create").
  const two = argv.length > 1 && !argv[1].startsWith("-") ? `${argv[0]} ${argv[1]}` : undefined;
  const command = COMMANDS.find((c) => c.spec.name === two) ?? COMMANDS.find((c) => c.spec.name === argv[0]);
  if (!command) {
    const group = helpOf([argv[0]]);
    if (!group) throw new UsageError(`unknown command "${argv[0]}"`, USAGE);
    if (asksForHelp(argv.slice(1))) {
      process.stdout.write(`${group}\n`);
      return;
    }
    const subcommands = COMMANDS.filter((c) => c.spec.name.startsWith(`${argv[0]} `)).map((c) => c.spec.name.split(" ")[1]);
    throw new UsageError(
      two ? `unknown subcommand "${two}"` : `${argv[0]} needs a subcommand: ${subcommands.join(", ")}`,
      group,
    );
  }
  const args = argv.slice(command.spec.name.split(" ").length);
  if (asksForHelp(args)) {
    process.stdout.write(`${commandHelp(command.spec)}\n`);
    return;
  }
  await command.run(parseOptions(command.spec, args));
}

/** One line, whatever the error: an operator reads a sentence, not a stack. */
function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message || String((err as { code?: unknown }).code ?? err.name) : String(err);
  return text.replace(/\s*\n\s*/g, " ");
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    process.stderr.write(`guestwifi${err.scope ? ` ${err.scope}` : ""}: ${err.message}\n\n${err.help}\n`);
    process.exitCode = 2;
    return;
  }
  process.stderr.write(`guestwifi: ${err instanceof ConfigError ? err.message : oneLine(err)}\n`);
  process.exitCode = 1;
});
