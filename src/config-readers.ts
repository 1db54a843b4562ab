/**
 * The readers every part of the config (src/*-config.ts) reads the environment with, so that every
 * variable fails with the same kind of message: a ConfigError naming the variable.
 */
import { readFileSync } from "node:fs";

export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

/** The readers of config.ts (each throws its ConfigError naming the variable). */
export interface ConfigReaders {
  str(name: string, fallback: string): string;
  /** The value, or undefined when unset or empty. */
  optional(name: string): string | undefined;
  int(name: string, fallback: number, min: number, max: number): number;
  bool(name: string, fallback: boolean): boolean;
  /** An absolute http(s) URL without trailing slashes, or the fallback. */
  url(name: string, fallback: string | undefined): string | undefined;
  fileText(name: string): string | undefined;
  fail(message: string): never;
}

function str(env: Env, name: string, fallback: string): string {
  const v = env[name];
  return v === undefined || v === "" ? fallback : v;
}

function optional(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === "" ? undefined : v;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const v = raw.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off"].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function url(env: Env, name: string, fallback: string | undefined): string | undefined {
  const v = optional(env, name) ?? fallback;
  if (v === undefined) return undefined;
  try {
    const u = new URL(v);
    if (!["http:", "https:"].includes(u.protocol)) throw new Error();
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${v}"`);
  }
  return v.replace(/\/+$/, "");
}

function fileText(env: Env, name: string): string | undefined {
  const path = optional(env, name);
  if (path === undefined) return undefined;
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new ConfigError(`${name} names a file that cannot be read (${path}): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

export function configReaders(env: Env): ConfigReaders {
  return {
    str: (name, fallback) => str(env, name, fallback),
    optional: (name) => optional(env, name),
    int: (name, fallback, min, max) => int(env, name, fallback, min, max),
    bool: (name, fallback) => bool(env, name, fallback),
    url: (name, fallback) => url(env, name, fallback),
    fileText: (name) => fileText(env, name),
    fail: (message) => {
      throw new ConfigError(message);
    },
  };
}
