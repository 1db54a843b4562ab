/**
 * The guestwifi command line: each command declares its options, and anything else (an unknown
 * option, a missing value, a stray argument) is refused before the command runs, with a message
 * that names it and the command's usage. Hand-written rather than node:util parseArgs, which takes
 * `--email --json` as an e-mail address of "--json" unless strict, and then words its own errors.
 */

export interface OptionSpec {
  /** Placeholder of the option's value ("E", "N"); absent for a switch. */
  value?: string;
  required?: boolean;
  help: string;
}

export interface CommandSpec {
  /** The words that name it: "serve", "account create". */
  name: string;
  summary: string;
  /** Sentences shown by --help under the usage line. */
  description: string;
  options: Record<string, OptionSpec>;
  /** Arguments after the options' words, all required, in order ("FILE"); in Flags by lower-case name. */
  args?: { name: string; help: string }[];
}

export type Flags = Record<string, string | true>;

export interface Command {
  spec: CommandSpec;
  run(flags: Flags): Promise<void>;
}

/** A command line we refuse: exit code 2, the message, then `help` (the relevant usage). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly help: string,
    /** The command the message is about, shown before it ("guestwifi demo: ..."). */
    readonly scope?: string,
  ) {
    super(message);
  }
}

const HELP_FLAGS = new Set(["-h", "--help"]);

export function asksForHelp(args: string[]): boolean {
  return args.some((a) => HELP_FLAGS.has(a));
}

function optionUsage(name: string, o: OptionSpec): string {
  const text = `--${name}${o.value ? ` ${o.value}` : ""}`;
  return o.required ? text : `[${text}]`;
}

export function usageLine(c: CommandSpec): string {
  return [c.name, ...(c.args ?? []).map((a) => a.name), ...Object.entries(c.options).map(([n, o]) => optionUsage(n, o))].join(" ");
}

/** Two aligned columns, indented: the command and option lists of the help texts. */
export function columns(rows: [string, string][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}

export function commandHelp(c: CommandSpec): string {
  const rows = (c.args ?? []).map((a): [string, string] => [a.name, a.help]);
  rows.push(...Object.entries(c.options).map(([n, o]): [string, string] => [`--${n}${o.value ? ` ${o.value}` : ""}`, o.help]));
  rows.push(["-h, --help", "show this help"]);
  return [`Usage: guestwifi ${usageLine(c)}`, "", c.description, "", "Options:", ...columns(rows)].join("\n");
}

/** The options after a command's words, checked against its spec. */
export function parseOptions(c: CommandSpec, args: string[]): Flags {
  const refuse = (message: string) => new UsageError(message, commandHelp(c), c.name);
  const flags: Flags = {};
  const positional = c.args ?? [];
  let given = 0;
  const take = (arg: string) => {
    if (given >= positional.length) throw refuse(`unexpected argument "${arg}"`);
    flags[positional[given++].name.toLowerCase()] = arg;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      for (const rest of args.slice(i + 1)) take(rest);
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      take(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const raw = eq < 0 ? arg : arg.slice(0, eq);
    const name = raw.startsWith("--") ? raw.slice(2) : "";
    const spec = name ? c.options[name] : undefined;
    if (!spec) throw refuse(`unknown option ${raw}`);
    if (flags[name] !== undefined) throw refuse(`${raw} is given more than once`);
    if (!spec.value) {
      if (eq >= 0) throw refuse(`${raw} takes no value`);
      flags[name] = true;
      continue;
    }
    // A value is the rest after "=", or the next argument unless that is another option.
    const value = eq >= 0 ? arg.slice(eq + 1) : i + 1 < args.length && !args[i + 1].startsWith("--") ? args[++i] : "";
    if (value === "") throw refuse(`${raw} needs a value`);
    flags[name] = value;
  }
  for (const [name, spec] of Object.entries(c.options)) {
    if (spec.required && flags[name] === undefined) throw refuse(`--${name} is required`);
  }
  if (given < positional.length) throw refuse(`${positional[given].name} is required`);
  return flags;
}
