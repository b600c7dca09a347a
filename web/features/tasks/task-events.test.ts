import { describe, expect, it } from 'vitest';
import type { Task } from '../../../common/tasks';
import { noteTask, onTaskChange } from './task-events';

const task = (id: string, state: string): Task => ({
  _id: id,
  type: 'remap',
  state,
  percentage: 0,
  progress: null,
  date: '2025-01-01T00:00:00.000Z',
  file: null,
  error: null,
  message: null,
  partner: null,
  dataset: null,
  username: null,
  result: null,
});

describe('task events (what the connector status follows)', () => {
  it('tells once when a task is seen running and once when it is seen ended', () => {
    const heard: string[] = [];
    const stop = onTaskChange((t, change) => heard.push(`${t._id} ${change}`));
    noteTask(task('a', 'queued'));
    noteTask(task('a', 'executing'));
    noteTask(task('a', 'updating'));
    noteTask(task('b', 'done'));
    noteTask(task('a', 'done'));
    noteTask(task('a', 'done'));
    noteTask(task('c', 'saving'));
    noteTask(task('c', 'failed'));
    stop();
    noteTask(task('d', 'saving'));
    // A task first seen finished (the task list's old ones) changes nothing.
    expect(heard).toEqual(['a started', 'a finished', 'c started', 'c finished']);
  });
});
