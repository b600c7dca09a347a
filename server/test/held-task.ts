import type { TaskContext } from '../tasks/worker';

/**
 * The context of a task to be held half-way (tests and journeys that must see a real task while it
 * runs): its first count between none and all is reported, then `onHeld` is called and the task
 * waits until `release` resolves. Everything else goes to `tctx` as it is.
 */
export function holdAtFirstCount(
  tctx: TaskContext,
  release: Promise<void>,
  onHeld: () => void = () => {},
): TaskContext {
  let held = false;
  return {
    ...tctx,
    async count(done, total, options) {
      await tctx.count(done, total, options);
      if (held || done <= 0 || done >= total) return;
      held = true;
      onHeld();
      await release;
    },
  };
}
