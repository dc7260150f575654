/**
 * `lore scan` with nothing new, answered from the launcher (bin.ts, dist/cli/lore.cjs) before the
 * whole CLI loads: when the scan stamp of the last scan still holds (src/capture/scan-stamp.ts: the
 * same lore, every file below the default folders with the mtime, size and inode it had, every
 * other file the answer read unchanged), what that scan printed is printed again, and nothing is
 * opened, judged or written. Only `lore scan` and `lore scan --json` come here; any other argument
 * (`--force` among them), a missing or damaged stamp, or any trouble runs the scan in full, which
 * writes a new stamp when it found nothing new.
 */
import { stampPlace, unchangedScanOutput } from '../capture/scan-stamp.js';
import { homeDirectory } from '../store/fs/paths.js';
import { formatOutput } from './run-command.js';
import type { Io } from './run-command.js';
import { markStage } from './stage-marks.js';

/** The exit code when the stamp answered (0), undefined when the scan must run. */
export function answerUnchangedScan(io: Io): number | undefined {
  const [verb, ...rest] = io.argv;
  if (verb !== 'scan' || rest.length > 1 || (rest.length === 1 && rest[0] !== '--json')) return undefined;
  let output;
  try {
    // as scan.ts finds the home folder
    const home = io.env.HOME !== undefined ? io.env.HOME : homeDirectory();
    output = unchangedScanOutput(stampPlace(io.cwd, io.env), io.env, home, Date.now());
  } catch {
    return undefined; // whatever went wrong, the scan itself will meet it and say so
  }
  markStage('scan stamp checked');
  if (output === undefined) return undefined;
  io.stdout(formatOutput(output, rest.length === 1));
  markStage('scan answered from its stamp');
  return 0;
}
