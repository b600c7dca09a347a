import { RUNNING_TASK_STATES, type Task } from '../../../common/tasks';

// Every task the screens read passes through here, so that what follows the worker (the sidebar's
// connector status) hears at once when a task is seen to start or to end, instead of at its own
// next poll: a remap or a count shorter than that poll was never seen busy.

type Listener = (task: Task, change: 'started' | 'finished') => void;

const listeners = new Set<Listener>();
const running = new Set<string>();
const isRunning = (state: string) => (RUNNING_TASK_STATES as readonly string[]).includes(state);

/** Notes a task as read from the server; tells the listeners when it is first seen running or seen ended. */
export function noteTask(task: Task): void {
  let change: 'started' | 'finished' | null = null;
  if (isRunning(task.state)) {
    if (!running.has(task._id)) change = 'started';
    running.add(task._id);
  } else if (running.delete(task._id) && (task.state === 'done' || task.state === 'failed')) {
    change = 'finished';
  }
  if (change) for (const listener of listeners) listener(task, change);
}

/** Calls `listener` whenever a task is seen to start running or to end; returns the unsubscribe. */
export function onTaskChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
