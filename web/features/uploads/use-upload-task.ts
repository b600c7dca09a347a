import { useCallback, useEffect, useRef, useState } from 'react';
import { UploadMessages } from '../../../common/imports';
import type { Task } from '../../../common/tasks';
import { hideAlert, showInfo } from '../../lib/alerts';
import { ApiError } from '../../lib/http';
import { useTask } from '../tasks/use-task';

/** The text of an upload failure: the server's message (or errorMessage), or the task's error. */
export function failureText(error: unknown): string {
  if (error instanceof ApiError) return error.errors.length > 1 ? error.errors.join('\n') : error.message;
  if (error instanceof Error) return error.message;
  return String(error ?? '');
}

/** Where an upload stands: idle, sending the file, its task running, done or failed. */
export type UploadPhase = 'idle' | 'uploading' | 'processing' | 'done' | 'failed';

interface Handlers {
  /** The task finished: its final state and the time since the upload began. */
  onDone: (task: Task, elapsedMs: number) => void;
  /** The upload was refused or the task failed: the error (ApiError, Error) or the task's error text. */
  onFailed: (error: unknown) => void;
}

/**
 * The upload-then-task flow of the upload screens (spec 000 §4 Upload): sends a file with
 * progress while the info alert 'Aan het uploaden' shows, then polls the task every `pollMs`
 * until it is done or failed, and calls the matching handler once.
 */
export function useUploadTask(pollMs: number, handlers: Handlers) {
  const [phase, setPhase] = useState<UploadPhase>('idle');
  const [progress, setProgress] = useState(0);
  const [taskId, setTaskId] = useState<string | null>(null);
  const [elapsedMs, setElapsedMs] = useState<number | null>(null);
  const startedAt = useRef(0);
  const infoId = useRef<string | null>(null);
  const finishedTask = useRef<string | null>(null);
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  const task = useTask(taskId, pollMs);

  const finish = useCallback((next: 'done' | 'failed') => {
    if (infoId.current) hideAlert(infoId.current);
    infoId.current = null;
    setElapsedMs(Date.now() - startedAt.current);
    setPhase(next);
  }, []);

  /** Sends the file: `send` gets the progress callback and resolves with the started task. */
  const start = useCallback(
    async (send: (onProgress: (percent: number) => void) => Promise<{ task: Task }>) => {
      startedAt.current = Date.now();
      finishedTask.current = null;
      setTaskId(null);
      setElapsedMs(null);
      setProgress(0);
      setPhase('uploading');
      infoId.current = showInfo(UploadMessages.uploadingTitle, UploadMessages.uploadingBody, false);
      try {
        const { task: started } = await send(setProgress);
        setTaskId(started._id);
        setPhase('processing');
      } catch (err) {
        finish('failed');
        handlersRef.current.onFailed(err);
      }
    },
    [finish],
  );

  useEffect(() => {
    const current = task.data;
    if (!current || current._id !== taskId || finishedTask.current === current._id) return;
    if (current.state !== 'done' && current.state !== 'failed') return;
    finishedTask.current = current._id;
    finish(current.state);
    if (current.state === 'done') handlersRef.current.onDone(current, Date.now() - startedAt.current);
    else handlersRef.current.onFailed(current.error ?? current.message ?? current.state);
  }, [task.data, taskId, finish]);

  useEffect(() => {
    if (!task.error || !taskId || finishedTask.current === taskId) return;
    finishedTask.current = taskId;
    finish('failed');
    handlersRef.current.onFailed(task.error);
  }, [task.error, taskId, finish]);

  // Leaving the screen hides the info alert; the task itself goes on (see /tasks).
  useEffect(
    () => () => {
      if (infoId.current) hideAlert(infoId.current);
    },
    [],
  );

  /** Back to idle (the result stays visible until the next upload starts). */
  const reset = useCallback(() => setPhase('idle'), []);

  const busy = phase === 'uploading' || phase === 'processing';
  return { phase, progress, task: taskId ? task.data : undefined, elapsedMs, busy, start, reset };
}
