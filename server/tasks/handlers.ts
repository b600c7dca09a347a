import type { AppContext } from '../context';

/** Registers the task types of every feature with the runner; a feature with tasks adds its line here. */
export function registerTaskHandlers(_ctx: AppContext): void {}
