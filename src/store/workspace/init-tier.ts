/**
 * Lays out a tier directory: lessons/, the gitignore that keeps derived files out of git, a
 * commented config.yaml, and the JSON Schemas that lesson files point editors at. Idempotent:
 * existing files are kept (schemas are refreshed when lore ships newer ones).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderConfigTemplate } from '../../core/lesson/config-yaml.js';
import { writeFileAtomic } from '../fs/fs-atomic.js';
import { ensureGitignore } from './gitignore.js';
import type { TierLayout } from '../fs/paths.js';

export const SCHEMA_FILES = ['lesson.schema.json', 'config.schema.json'] as const;

/** Where the package keeps its published schemas (`<package>/schema`). */
export const PACKAGE_SCHEMA_DIR = new URL('../../../schema/', import.meta.url);

export type InitReport = { created: string[]; updated: string[]; kept: string[] };

export function initTier(layout: TierLayout): InitReport {
  const report: InitReport = { created: [], updated: [], kept: [] };
  const ensureDir = (path: string) => {
    if (existsSync(path)) report.kept.push(path);
    else {
      mkdirSync(path, { recursive: true });
      report.created.push(path);
    }
  };
  const ensureFile = (path: string, content: string, refresh: boolean) => {
    if (!existsSync(path)) {
      writeFileAtomic(path, content);
      report.created.push(path);
    } else if (refresh && readFileSync(path, 'utf8') !== content) {
      writeFileAtomic(path, content);
      report.updated.push(path);
    } else report.kept.push(path);
  };
  ensureDir(layout.dir);
  ensureDir(layout.lessonsDir);
  const gitignore = join(layout.dir, '.gitignore');
  const ignored = ensureGitignore(layout.dir);
  report[ignored].push(gitignore);
  ensureFile(layout.configFile, renderConfigTemplate(), false);
  mkdirSync(layout.schemaDir, { recursive: true });
  for (const name of SCHEMA_FILES) {
    ensureFile(join(layout.schemaDir, name), readFileSync(new URL(name, PACKAGE_SCHEMA_DIR), 'utf8'), true);
  }
  return report;
}
