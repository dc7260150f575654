/**
 * A transformers.js model from a directory the user points at (`embeddings.path`). lore does not
 * depend on `@huggingface/transformers` and never downloads weights: the package is imported only
 * when this provider runs, remote models are switched off, and a missing package or model is a
 * failure that says what to install or where to point.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, resolve } from 'node:path';
import { checkVectors } from './embedding-provider.js';
import type { Embedded, EmbeddingProvider } from './embedding-provider.js';

type FeatureExtractor = (
  texts: string[],
  options: { pooling: 'mean'; normalize: boolean },
) => Promise<{ tolist(): unknown }>;

type Transformers = {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline(
    task: 'feature-extraction',
    model: string,
    options: { local_files_only: boolean },
  ): Promise<unknown>;
};

/**
 * The package's name in a variable, loaded with require from lore's own location: bundlers leave
 * it alone (lore never ships it), and the bundled `lore mcp`, which runs from V8's code cache
 * where import() cannot load anything, can load it too (the package ships a CommonJS build).
 */
const PACKAGE = '@huggingface/transformers';

export function createLocalEmbedder(settings: {
  path: string;
  model: string | undefined;
}): EmbeddingProvider {
  const dir = resolve(settings.path);
  let extractor: Promise<FeatureExtractor | Embedded> | undefined;
  const load = async (): Promise<FeatureExtractor | Embedded> => {
    if (!existsSync(dir))
      return { ok: false, kind: 'unreachable', message: `the model directory ${dir} does not exist` };
    let lib: Transformers;
    try {
      lib = createRequire(import.meta.url)(PACKAGE) as Transformers;
    } catch (error) {
      const missing = (error as { code?: string }).code === 'MODULE_NOT_FOUND';
      return {
        ok: false,
        kind: 'unreachable',
        message: missing
          ? `${PACKAGE} is not installed: install it where lore is installed (\`npm install -g ${PACKAGE}\` for a global lore); lore never downloads it`
          : `${PACKAGE} could not be loaded: ${(error as Error).message}`,
      };
    }
    lib.env.allowRemoteModels = false;
    lib.env.allowLocalModels = true;
    lib.env.localModelPath = dirname(dir);
    try {
      return (await lib.pipeline('feature-extraction', basename(dir), {
        local_files_only: true,
      })) as FeatureExtractor;
    } catch (error) {
      return {
        ok: false,
        kind: 'error',
        message: `could not load the model in ${dir}: ${(error as Error).message}`,
      };
    }
  };
  return {
    name: 'local',
    model: settings.model ?? basename(dir),
    endpoint: dir,
    async embed(texts): Promise<Embedded> {
      if (texts.length === 0) return { ok: true, vectors: [], dimensions: 0 };
      extractor ??= load();
      const loaded = await extractor;
      if (typeof loaded !== 'function') return loaded;
      try {
        const output = await loaded([...texts], { pooling: 'mean', normalize: true });
        return checkVectors(output.tolist(), texts.length);
      } catch (error) {
        return { ok: false, kind: 'error', message: `the local model failed: ${(error as Error).message}` };
      }
    },
  };
}
