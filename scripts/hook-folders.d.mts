// Types of hook-folders.mjs, for the tests that read it.
export const HOOK_FOLDERS: string[];
export const HOOK_EXCEPTIONS: string[];
export function isHookFile(path: string): boolean;
