import { createMoveCommand } from '../move-command.js';

export const command = createMoveCommand('demote');
