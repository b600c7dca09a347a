import { useEffect } from 'react';
import { type BuilderDraft, countKeyOf } from '../selections/builder-store';
import { pendingFiles, scheduleCount, stopCount } from './live-count-runner';

/**
 * Counts the draft live while the builder shows it: after every change of its tree or settings
 * (and when a selection is opened) a count follows the pause; leaving the builder stops it.
 * `enabled` false (the draft still loading) counts nothing.
 */
export function useLiveCount(draft: BuilderDraft, enabled: boolean): void {
  const key = countKeyOf(draft);
  const pending = pendingFiles(draft).join('\u0000');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key and pending files stand for the draft.
  useEffect(() => {
    if (!enabled || !draft.campaign || !draft.mailing) return;
    scheduleCount();
  }, [enabled, key, pending, draft.campaign, draft.mailing]);
  useEffect(() => stopCount, []);
}
