/**
 * The file primitives every write goes through, so that a crash or a second process never leaves
 * a half-written file: whole files are written to a temporary name and renamed into place;
 * sidecar lines are appended with O_APPEND in one write; new directories are claimed with mkdir,
 * which fails if another process got there first.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

export const TEMP_SUFFIX = '.tmp';

/**
 * `'a'` as flags (write-only, append, create), and non-blocking: opening a FIFO planted under an
 * appended file's name (an audit log, a claims file) then fails at once (ENXIO) instead of waiting
 * for a reader for ever, which would hang a hook. On a regular file O_NONBLOCK changes nothing.
 */
const APPEND_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0);
/** `'a+'` as flags, non-blocking (see APPEND_FLAGS). */
const APPEND_READ_FLAGS =
  constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0);

/** lore's own temporary names (`writeFileAtomic`): `.<file>.<pid>.<8 hex>.tmp`. */
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/**
 * A temporary file of lore's, by its name. Only lore's own pattern: a user's `.notes.tmp` in a
 * lesson directory is theirs, and a sweep must never delete it.
 */
export function isTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/** The pid of the process that is (or was) writing a temporary file, from its name. */
export function tempOwnerPid(name: string): number | undefined {
  const match = TEMP_NAME.exec(name);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/**
 * Whether `pid` is a running process. One that exited but that its parent has not reaped yet (a
 * zombie: a parent busy elsewhere, a container whose first process reaps nobody) still answers
 * signal 0, but holds nothing any more: on Linux its state in /proc says so.
 */
export function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  return procStatFields(pid)?.[0] === 'Z';
}

/**
 * The fields of `/proc/<pid>/stat` after the command name (which may hold spaces and parentheses:
 * they follow the last ")"), the state first; undefined without /proc or once the process is gone.
 */
export function procStatFields(pid: number): string[] | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** A temporary file left behind by a writer that died: safe to remove. */
export function isAbandonedTemp(name: string): boolean {
  if (!isTempName(name)) return false;
  const pid = tempOwnerPid(name);
  return pid === undefined || !isProcessAlive(pid);
}

/**
 * `mode`: the permission bits the file gets exactly (umask aside), set on the temporary file
 * before the rename, so a 0600 file is never readable by others in between; default 0644 less umask.
 */
export function writeFileAtomic(path: string, content: string, mode?: number): void {
  const temp = tempPathOf(path);
  const fd = openSync(temp, 'wx', mode ?? 0o644);
  try {
    if (mode !== undefined) fchmodSync(fd, mode);
    writeAll(fd, Buffer.from(content, 'utf8'));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    unlinkQuietly(temp);
    throw error;
  }
}

/** A fresh temporary name beside `path`, in lore's pattern (see `isTempName`). */
function tempPathOf(path: string): string {
  // node:crypto loads here, on first use, not with the module: 2-3 ms of every command (a
  // `lore search`, `lore mcp`) that never writes a file
  const random = process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex');
  return join(dirname(path), `.${basename(path)}.${process.pid}.${random}${TEMP_SUFFIX}`);
}

/** A whole file written in pieces: see `openAtomicWriter`. */
export type AtomicWriter = {
  /** Appends text (buffered: written in pieces of about 64 KB). */
  write(text: string): void;
  /** Writes what is buffered, syncs, and renames the file into place. */
  commit(): void;
  /** Leaves the file as it was and removes the temporary one (nothing once committed). */
  abort(): void;
};

const WRITER_BUFFER_CHARS = 1 << 16;

/**
 * `writeFileAtomic` for a file made in pieces (a large state file written as it is computed, not
 * held whole in memory first): the pieces go to a temporary name and `commit` renames it into
 * place, so the old file stays whole until then, whatever happens. A writer neither committed nor
 * aborted (a crash) leaves its temporary file behind: `isAbandonedTemp` names it.
 */
export function openAtomicWriter(path: string): AtomicWriter {
  const temp = tempPathOf(path);
  const fd = openSync(temp, 'wx', 0o644);
  let closed = false;
  let pieces: string[] = [];
  let chars = 0;
  const flush = () => {
    if (pieces.length === 0) return;
    const text = pieces.join('');
    pieces = [];
    chars = 0;
    writeAll(fd, Buffer.from(text, 'utf8'));
  };
  const close = () => {
    if (closed) return false;
    closed = true;
    closeSync(fd);
    return true;
  };
  return {
    write(text) {
      if (closed) throw new Error(`${path}: written after its writer was closed`);
      pieces.push(text);
      chars += text.length;
      if (chars >= WRITER_BUFFER_CHARS) flush();
    },
    commit() {
      if (closed) throw new Error(`${path}: committed after its writer was closed`);
      try {
        flush();
        fsyncSync(fd);
      } catch (error) {
        close();
        unlinkQuietly(temp);
        throw error;
      }
      close();
      try {
        renameSync(temp, path);
      } catch (error) {
        unlinkQuietly(temp);
        throw error;
      }
    },
    abort() {
      if (close()) unlinkQuietly(temp);
    },
  };
}

/** Symlinks followed before giving up, as the kernel's own limit (ELOOP). */
const MAX_LINK_HOPS = 40;

/**
 * The file a path names once its symlinks are followed, the last one even when it dangles (its
 * target does not exist yet): where a write through the path must land. A path that is no link is
 * itself. A relative link is read from the real directory holding it, as the kernel reads it.
 */
export function resolveLinkTarget(path: string): string {
  let current = path;
  for (let hop = 0; hop < MAX_LINK_HOPS; hop += 1) {
    let link: string;
    try {
      link = readlinkSync(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EINVAL' || code === 'ENOENT' || code === 'UNKNOWN') return current;
      throw error;
    }
    current = resolve(realpathSync(dirname(current)), link);
  }
  throw Object.assign(new Error(`too many symbolic links: ${path}`), { code: 'ELOOP' });
}

/**
 * Replaces a file atomically through its symlinks: a link (AGENTS.md -> CLAUDE.md, a dotfiles
 * repository's settings.json) stays a link and its target gets the text, keeping its permission
 * bits; a dangling link's target is created (with its folder). Returns the file written.
 */
export function writeFileThroughLinks(path: string, content: string): string {
  const target = resolveLinkTarget(path);
  const mode = statSync(target, { throwIfNoEntry: false })?.mode;
  mkdirSync(dirname(target), { recursive: true });
  writeFileAtomic(target, content, mode === undefined ? undefined : mode & 0o7777);
  return target;
}

/**
 * Appends one line. A single write on an O_APPEND descriptor lands whole at the end of the file
 * even with other writers. If an earlier writer died mid-line, a newline first keeps lines apart.
 */
export function appendLine(path: string, line: string): void {
  if (line.includes('\n')) throw new Error('appendLine takes a single line');
  const fd = openSync(path, APPEND_READ_FLAGS, 0o644);
  try {
    const size = statSync(path).size;
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = '\n';
    }
    writeAll(fd, Buffer.from(`${prefix}${line}\n`, 'utf8'));
  } finally {
    closeSync(fd);
  }
}

/**
 * Appends text (whole lines) in one write on an O_APPEND descriptor: it lands whole at the end of
 * the file even with other writers. Open, write and close rather than appendFileSync, whose first
 * call costs a fresh process (a hook) ~0.3 ms of Node's own set-up against ~0.1 ms for these.
 * Throws what opening throws (ENOENT when the directory is missing).
 */
export function appendText(
  path: string,
  text: string,
  mode = 0o644,
  options: { noFollow?: boolean } = {},
): void {
  // O_NOFOLLOW: in a shared temporary folder, a link planted under the file's name must not
  // redirect the append into another file of the user's (where the platform has the flag)
  const flags = options.noFollow === true ? APPEND_FLAGS | (constants.O_NOFOLLOW ?? 0) : APPEND_FLAGS;
  const fd = openSync(path, flags, mode);
  try {
    writeAll(fd, Buffer.from(text, 'utf8'));
  } finally {
    closeSync(fd);
  }
}

function writeAll(fd: number, buffer: Buffer): void {
  let offset = 0;
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
}

/** Creates a directory that must not exist yet. Returns false if it already exists. */
export function claimDirectory(path: string): boolean {
  try {
    mkdirSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
