// After tsc: make the CLI entry executable (npm link and direct runs need the bit).
import { chmodSync } from 'node:fs';
chmodSync(new URL('../dist/cli/bin.js', import.meta.url), 0o755);
