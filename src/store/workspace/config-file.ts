/**
 * Reads the config files of the tiers (user first, project over it) and parses them.
 */
import { readFileSync } from 'node:fs';
import type { Problem } from '../../core/errors.js';
import type { Config } from '../../core/lesson/schema.js';
import { parseConfigYaml } from '../../core/lesson/config-yaml.js';
import type { ConfigLayer } from '../../core/lesson/config-yaml.js';

export function parseConfigLayers(
  files: readonly string[],
  displayPath: (path: string) => string,
): { config: Config; problems: Problem[] } {
  const layers: ConfigLayer[] = [];
  for (const file of files) {
    try {
      layers.push({ file: displayPath(file), text: readFileSync(file, 'utf8') });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return parseConfigYaml(layers);
}
