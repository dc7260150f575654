/** The trigger of the error-gated lesson the hook, CLI and real-agent tests share: `ls`, once it printed "No such file or directory". */
export const LS_ERROR_TRIGGER = [
  '--tool',
  'Bash',
  '--command',
  '(^|\\s)ls(\\s|$)',
  '--error',
  'No such file or directory',
] as const;
