/**
 * The organisation servers this machine talks to, in the user tier: `remotes.json` (name -> URL,
 * `lore remote add`) and `credentials.json` (name -> token, `lore login`), the latter created
 * with mode 0600 and rewritten only through a 0600 temporary file, so a token is never readable by
 * another user, not even for a moment.
 */
import {
  chmodSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
  closeSync,
  unlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { LoreError } from '../../core/errors.js';

export const REMOTES_FILE = 'remotes.json';
export const CREDENTIALS_FILE = 'credentials.json';

export type Remote = { name: string; url: string };
type RemotesFile = { version: 1; remotes: Record<string, { url: string }> };
type CredentialsFile = { version: 1; tokens: Record<string, string> };

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function readJson<T>(path: string, fallback: T): T {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw error;
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new LoreError('invalid', `${path} is not valid JSON: ${(error as Error).message}`, {
      hint: 'fix or delete the file, then run the command again',
    });
  }
}

/** Writes through a temporary file created with `mode`, then renames it over the old one. */
function writePrivate(path: string, content: string, mode: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', mode);
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  try {
    chmodSync(temp, mode);
    renameSync(temp, path);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}

export function checkRemoteName(name: string): string {
  if (!NAME.test(name))
    throw new LoreError('usage', `"${name}" is not a valid remote name`, {
      hint: 'use letters, digits, . _ - (e.g. origin, acme)',
    });
  return name;
}

export function checkRemoteUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new LoreError('usage', `"${url}" is not a URL`, {
      hint: 'e.g. https://lore.example.com/ or http://127.0.0.1:4777/',
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new LoreError('usage', `${url}: only http:// and https:// servers are supported`);
  if (parsed.username || parsed.password)
    throw new LoreError('usage', 'put no credentials in the URL', {
      hint: 'use `lore login NAME --token T` (the token is stored mode 0600)',
    });
  return parsed.href.replace(/\/+$/, '');
}

export function readRemotes(loreHome: string): Remote[] {
  const file = readJson<RemotesFile>(join(loreHome, REMOTES_FILE), { version: 1, remotes: {} });
  return Object.entries(file.remotes ?? {}).map(([name, value]) => ({ name, url: value.url }));
}

export function addRemote(
  loreHome: string,
  name: string,
  url: string,
): { remote: Remote; replaced: boolean } {
  const path = join(loreHome, REMOTES_FILE);
  const file = readJson<RemotesFile>(path, { version: 1, remotes: {} });
  const remote = { name: checkRemoteName(name), url: checkRemoteUrl(url) };
  const replaced = Object.hasOwn(file.remotes, name);
  file.remotes[name] = { url: remote.url };
  writePrivate(path, `${JSON.stringify(file, null, 2)}\n`, 0o644);
  return { remote, replaced };
}

export function removeRemote(loreHome: string, name: string): boolean {
  const path = join(loreHome, REMOTES_FILE);
  const file = readJson<RemotesFile>(path, { version: 1, remotes: {} });
  if (!Object.hasOwn(file.remotes, name)) return false;
  delete file.remotes[name];
  writePrivate(path, `${JSON.stringify(file, null, 2)}\n`, 0o644);
  const credentials = join(loreHome, CREDENTIALS_FILE);
  const tokens = readJson<CredentialsFile>(credentials, { version: 1, tokens: {} });
  if (Object.hasOwn(tokens.tokens, name)) {
    delete tokens.tokens[name];
    writePrivate(credentials, `${JSON.stringify(tokens, null, 2)}\n`, 0o600);
  }
  return true;
}

export function saveToken(loreHome: string, name: string, token: string): string {
  const path = join(loreHome, CREDENTIALS_FILE);
  const file = readJson<CredentialsFile>(path, { version: 1, tokens: {} });
  file.tokens[name] = token;
  writePrivate(path, `${JSON.stringify(file, null, 2)}\n`, 0o600);
  return path;
}

export function readToken(loreHome: string, name: string): string | undefined {
  return readJson<CredentialsFile>(join(loreHome, CREDENTIALS_FILE), { version: 1, tokens: {} }).tokens?.[
    name
  ];
}

/** The named remote, or the only one; a clear error when there is none or the choice is ambiguous. */
export function chooseRemote(loreHome: string, name: string | undefined): Remote {
  const remotes = readRemotes(loreHome);
  if (name !== undefined) {
    const found = remotes.find((remote) => remote.name === name);
    if (!found)
      throw new LoreError('not-found', `no remote named "${name}"`, {
        hint:
          remotes.length > 0
            ? `remotes: ${remotes.map((r) => r.name).join(', ')}`
            : 'add one with `lore remote add NAME URL`',
      });
    return found;
  }
  if (remotes.length === 0)
    throw new LoreError('usage', 'no organisation remote is set up', {
      hint: 'add one with `lore remote add NAME URL`, then `lore login NAME --token T`',
    });
  if (remotes.length > 1)
    throw new LoreError('usage', `there are ${remotes.length} remotes; say which with --remote NAME`, {
      hint: `remotes: ${remotes.map((r) => r.name).join(', ')}`,
    });
  return remotes[0] as Remote;
}

export function requireToken(loreHome: string, remote: Remote): string {
  const token = readToken(loreHome, remote.name);
  if (token === undefined)
    throw new LoreError('usage', `not logged in to ${remote.name} (${remote.url})`, {
      hint: `run \`lore login ${remote.name} --token T\` with a token an admin made (\`lore org token create\`)`,
    });
  return token;
}
