/** The defaults of the `docs` config section, in one place (the config schema uses them too). */
export const DOCS_DEFAULTS = { roots: ['docs'], hybridWeight: 0.5, taskPrefixes: [] as string[] } as const;
