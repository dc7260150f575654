/**
 * A transformers.js model from a directory the user points at (`embeddings.path`). lore does not
 * depend on `@huggingface/transformers` and never downloads weights: the package is imported only
 * when this provider runs, remote models are switched off, and a missing package or model is a
 * failure that says what to install or where to point.
 */
import { existsSync } from 'node:fs';
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

/** The package's name in a variable: bundlers leave the import alone, so lore never ships it. */
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
      lib = (await import(PACKAGE)) as Transformers;
    } catch {
      return {
        ok: false,
        kind: 'unreachable',
        message: `${PACKAGE} is not installed: run \`npm install -g ${PACKAGE}\` next to lore (lore never downloads it)`,
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
